// block_copy: how fast one CUDA thread block copies memory on its own GPU, for linkcast's model
// of NCCL's channels. An NCCL channel is one thread block per rank (NCCL_SIMPLE_MAX_NTHREADS =
// 512 threads plus a sync warp, 16-byte loads and stores); a ring's last step on a rank ("recv")
// copies a received chunk out of the connection's buffer (NCCL_BUFFSIZE = 4 MiB, in the
// receiver's memory) into the user's buffer, with no data on the links while it runs.
//
// For each number of blocks B (1 .. 132) and each pattern, B blocks of 544 threads (512 copying)
// copy at once, each its own region; timed with CUDA events, one warm-up and --reps (default 7)
// timed launches; the median per case. --threads N copies with N threads per block instead of
// 512 (a multiple of 32; NCCL's send/receive kernel runs NCCL_MAX_NTHREADS = 640).
//   large   each block copies 64 MiB from one buffer to another (both far larger than L2)
//   fifo    each block copies 64 MiB into the user buffer from its own 4 MiB source read over and
//           over (the connection buffer a received chunk sits in)
// With two GPUs or more (peer access on), also what an NCCL send does over NVLink:
//   peer_write       blocks on GPU 0 copy their local 64 MiB into GPU 1's memory
//   peer_write_both  the same on GPU 0 towards GPU 1 and on GPU 1 towards GPU 0 at once (ns: the
//                    slower of the two; per_block_gbps per direction)
//   ring_step        what one NCCL ring channel's block does on a rank, on both GPUs at once: in
//                    512 KiB chunks, it writes its local data into the peer's memory (a send),
//                    then copies a chunk out of its own 4 MiB buffer into the user's (a recv);
//                    per_block_gbps counts both copies' bytes (the block's data rate)
// --patterns a,b,... runs only those patterns.
//
// Output (stdout, CSV): pattern,blocks,bytes_per_block,ns,per_block_gbps,total_gbps
// (GB/s = 1e9 bytes copied per second; read + write traffic is twice that).
// Build: nvcc -O3 -arch=sm_90 -o block_copy tools/record/block_copy.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(x)                                                                   \
  do {                                                                             \
    cudaError_t e = (x);                                                           \
    if (e != cudaSuccess) {                                                        \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)

constexpr int kDefaultCopyThreads = 512;
constexpr int kSyncWarp = 32;  // NCCL's extra warp for synchronisation
constexpr size_t kPerBlock = size_t{64} << 20;
constexpr size_t kFifo = size_t{4} << 20;

// Block b copies `per_block` bytes into dst + b*per_block from src + b*src_stride, its source
// wrapping every `src_span` bytes (the whole region for `large`, 4 MiB for `fifo`).
__global__ void copy_blocks(const int4* __restrict__ src, int4* __restrict__ dst, size_t per_block,
                            size_t src_stride, size_t src_span, int copy_threads) {
  if (static_cast<int>(threadIdx.x) >= copy_threads) return;
  const size_t n = per_block / sizeof(int4);
  const size_t span = src_span / sizeof(int4);
  const int4* s = src + blockIdx.x * (src_stride / sizeof(int4));
  int4* d = dst + blockIdx.x * n;
  constexpr int kUnroll = 4;
  for (size_t base = threadIdx.x; base < n; base += static_cast<size_t>(copy_threads) * kUnroll) {
    int4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const size_t i = base + static_cast<size_t>(u) * copy_threads;
      if (i < n) v[u] = s[i % span];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const size_t i = base + static_cast<size_t>(u) * copy_threads;
      if (i < n) d[i] = v[u];
    }
  }
}

// Block b, in `chunk`-byte pieces of its `per_block` bytes: copies a piece of its region of `src`
// into its 4 MiB region of `peer_fifo` in the other GPU (a send into the connection buffer there,
// wrapping), then a piece out of its 4 MiB region of `own_fifo` into its region of `dst` (a recv),
// alternating to the end.
__global__ void ring_step_blocks(const int4* __restrict__ src, int4* __restrict__ peer_fifo,
                                 const int4* __restrict__ own_fifo, int4* __restrict__ dst, size_t per_block,
                                 size_t chunk, int copy_threads) {
  if (static_cast<int>(threadIdx.x) >= copy_threads) return;
  const size_t n = per_block / sizeof(int4), c = chunk / sizeof(int4), span = kFifo / sizeof(int4);
  const int4* s = src + blockIdx.x * n;
  int4* p = peer_fifo + blockIdx.x * span;
  const int4* f = own_fifo + blockIdx.x * span;
  int4* d = dst + blockIdx.x * n;
  for (size_t at = 0; at < n; at += c) {
    const size_t end = at + c < n ? at + c : n;
    for (size_t i = at + threadIdx.x; i < end; i += static_cast<size_t>(copy_threads)) p[i % span] = s[i];
    for (size_t i = at + threadIdx.x; i < end; i += static_cast<size_t>(copy_threads)) d[i] = f[i % span];
  }
}

// Runs launch(i) on each GPU gpus[i] (started together, each timed by CUDA events on its own GPU)
// and returns the slowest GPU's milliseconds.
template <typename Launch>
float time_on_gpus(const std::vector<int>& gpus, Launch launch) {
  std::vector<cudaEvent_t> a(gpus.size()), b(gpus.size());
  for (size_t i = 0; i < gpus.size(); ++i) {
    CHECK(cudaSetDevice(gpus[i]));
    CHECK(cudaEventCreate(&a[i]));
    CHECK(cudaEventCreate(&b[i]));
  }
  for (size_t i = 0; i < gpus.size(); ++i) {
    CHECK(cudaSetDevice(gpus[i]));
    CHECK(cudaEventRecord(a[i]));
    launch(i);
    CHECK(cudaEventRecord(b[i]));
  }
  float worst = 0;
  for (size_t i = 0; i < gpus.size(); ++i) {
    CHECK(cudaSetDevice(gpus[i]));
    CHECK(cudaEventSynchronize(b[i]));
    CHECK(cudaGetLastError());
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, a[i], b[i]));
    worst = std::max(worst, t);
    CHECK(cudaEventDestroy(a[i]));
    CHECK(cudaEventDestroy(b[i]));
  }
  CHECK(cudaSetDevice(0));
  return worst;
}

// One timed case of ring_step: `blocks` blocks on GPUs 0 and 1 at once, each sending into the
// other's fifo; the slower GPU's milliseconds.
float run_ring_step(const int4* const src[2], int4* const fifo[2], int4* const dst[2], int blocks, int copy_threads) {
  constexpr size_t kChunk = size_t{512} << 10;
  return time_on_gpus({0, 1}, [&](size_t g) {
    ring_step_blocks<<<blocks, copy_threads + kSyncWarp>>>(src[g], fifo[1 - g], fifo[g], dst[g], kPerBlock, kChunk,
                                                           copy_threads);
  });
}

// One timed case: `blocks` blocks on each GPU of `gpus` copy from src[g] to dst[g] (launched
// together, each timed on its own GPU); the slowest GPU's milliseconds.
float run_case(const std::vector<int>& gpus, const std::vector<const int4*>& src, const std::vector<int4*>& dst,
               int blocks, size_t stride, size_t span, int copy_threads) {
  return time_on_gpus(gpus, [&](size_t i) {
    copy_blocks<<<blocks, copy_threads + kSyncWarp>>>(src[i], dst[i], kPerBlock, stride, span, copy_threads);
  });
}

int main(int argc, char** argv) {
  int reps = 7, copy_threads = kDefaultCopyThreads;
  std::string only;  // --patterns: comma-separated; empty runs every pattern
  for (int i = 1; i + 1 < argc; ++i) {
    if (!std::strcmp(argv[i], "--reps")) reps = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--threads")) copy_threads = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--patterns")) only = std::string(",") + argv[++i] + ",";
  }
  const auto wanted = [&](const char* pattern) {
    return only.empty() || only.find(std::string(",") + pattern + ",") != std::string::npos;
  };
  if (copy_threads < 32 || copy_threads % 32 != 0 || copy_threads + kSyncWarp > 1024) {
    std::fprintf(stderr, "--threads %d: give a multiple of 32 from 32 to 992\n", copy_threads);
    return 2;
  }
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::fprintf(stderr, "device: %s, %d SMs, L2 %d MiB\n", prop.name, prop.multiProcessorCount,
               prop.l2CacheSize >> 20);
  std::vector<int> counts = {1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, prop.multiProcessorCount};
  const int max_blocks = prop.multiProcessorCount;
  int4 *src = nullptr, *dst = nullptr;
  CHECK(cudaMalloc(&src, kPerBlock * max_blocks));
  CHECK(cudaMalloc(&dst, kPerBlock * max_blocks));
  CHECK(cudaMemset(src, 1, kPerBlock * max_blocks));
  CHECK(cudaMemset(dst, 0, kPerBlock * max_blocks));
  int ngpus = 0;
  CHECK(cudaGetDeviceCount(&ngpus));
  int4 *peer_src = nullptr, *peer_dst = nullptr;  // on GPU 1
  if (ngpus >= 2) {
    int can01 = 0, can10 = 0;
    CHECK(cudaDeviceCanAccessPeer(&can01, 0, 1));
    CHECK(cudaDeviceCanAccessPeer(&can10, 1, 0));
    if (can01 && can10) {
      CHECK(cudaSetDevice(0));
      CHECK(cudaDeviceEnablePeerAccess(1, 0));
      CHECK(cudaSetDevice(1));
      CHECK(cudaDeviceEnablePeerAccess(0, 0));
      CHECK(cudaMalloc(&peer_src, kPerBlock * max_blocks));
      CHECK(cudaMalloc(&peer_dst, kPerBlock * max_blocks));
      CHECK(cudaMemset(peer_src, 1, kPerBlock * max_blocks));
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaSetDevice(0));
    } else {
      std::fprintf(stderr, "GPUs 0 and 1 have no peer access: no peer patterns\n");
    }
  }
  std::printf("pattern,blocks,bytes_per_block,ns,per_block_gbps,total_gbps\n");
  std::vector<const char*> patterns;
  for (const char* pattern : {"large", "fifo", "peer_write", "peer_write_both"})
    if (wanted(pattern) && (peer_dst || std::strncmp(pattern, "peer", 4) != 0)) patterns.push_back(pattern);
  // Each count of blocks: one warm-up and `reps` timed runs of run(blocks), the median as a row
  // (each block moving `bytes_per_block`).
  const auto measure = [&](const char* pattern, size_t bytes_per_block, const auto& run) {
    for (int blocks : counts) {
      std::vector<float> ms;
      for (int r = 0; r <= reps; ++r) {
        const float t = run(blocks);
        if (r > 0) ms.push_back(t);
      }
      std::sort(ms.begin(), ms.end());
      const double ns = ms[ms.size() / 2] * 1e6;
      const double per_block = static_cast<double>(bytes_per_block) / ns;
      std::printf("%s,%d,%zu,%.0f,%.2f,%.1f\n", pattern, blocks, bytes_per_block, ns, per_block, per_block * blocks);
      std::fflush(stdout);
    }
  };
  for (const char* pattern : patterns) {
    const bool fifo = !std::strcmp(pattern, "fifo");
    const size_t stride = fifo ? kFifo : kPerBlock, span = fifo ? kFifo : kPerBlock;
    std::vector<int> gpus = {0};
    std::vector<const int4*> from = {src};
    std::vector<int4*> to = {dst};
    if (!std::strcmp(pattern, "peer_write")) to = {peer_dst};
    if (!std::strcmp(pattern, "peer_write_both")) {
      gpus = {0, 1};
      from = {src, peer_src};
      to = {peer_dst, dst};
    }
    measure(pattern, kPerBlock, [&](int blocks) { return run_case(gpus, from, to, blocks, stride, span, copy_threads); });
  }
  if (peer_dst && wanted("ring_step")) {
    int4* fifo[2] = {nullptr, nullptr};  // each GPU's connection buffers, 4 MiB a block
    for (int g = 0; g < 2; ++g) {
      CHECK(cudaSetDevice(g));
      CHECK(cudaMalloc(&fifo[g], kFifo * max_blocks));
      CHECK(cudaMemset(fifo[g], 2, kFifo * max_blocks));
    }
    CHECK(cudaSetDevice(0));
    const int4* from[2] = {src, peer_src};
    int4* into[2] = {dst, peer_dst};
    // Each block sends kPerBlock bytes and receives as many: its data rate counts both.
    measure("ring_step", 2 * kPerBlock, [&](int blocks) { return run_ring_step(from, fifo, into, blocks, copy_threads); });
  }
  return 0;
}
