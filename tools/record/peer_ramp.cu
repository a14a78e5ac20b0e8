// peer_ramp: does a GPU's rate of stores into its peer depend on how long the stores run, and do
// the blocks that share it keep pace with each other? For linkcast's model of NCCL's channels
// (issue 19): at NCCL's 24 channels ring calls of 256 MiB-4 GiB on 2 x H200 gain 15-29% of bus
// bandwidth with the size where 8 channels gain none, as if each call paid a fixed time the
// simulator does not charge. Two GPUs store into each other at once (NCCL's ring on 2 ranks), B
// blocks of 512 copying threads each, every block its own region of `bytes` bytes.
//
// Per case (B blocks, `bytes` a block, K kernels back to back on each GPU, timed together by CUDA
// events; one warm-up, --reps timed, the median):
//   ramp.csv      blocks,bytes_per_block,launches,ns_per_launch,total_gbps (both GPUs' stores a
//                 second, per direction), block_ns_min,block_ns_median,block_ns_max (each block's
//                 own time, %globaltimer, in the median launch of GPU 0's first kernel),
//                 start_skew_ns (its blocks' latest start less the earliest)
//   progress.csv  blocks,bytes_per_block,block,sixteenth,ns: when block b of GPU 0 had stored
//                 sixteenth/16 of its bytes, from its kernel's first block start (the last
//                 timed launch of K = 1)
// Build: nvcc -O3 -arch=sm_90 -o peer_ramp tools/record/peer_ramp.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(x)                                                                        \
  do {                                                                                  \
    cudaError_t e = (x);                                                                \
    if (e != cudaSuccess) {                                                             \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      std::exit(1);                                                                     \
    }                                                                                   \
  } while (0)

constexpr int kThreads = 512;
constexpr int kMarks = 16;

__device__ __forceinline__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Block b copies `per_block` bytes from src + b*per_block into dst + b*per_block (dst in the
// peer's memory); thread 0 records the block's start, each sixteenth and its end in marks[b].
__global__ void store_blocks(const int4* __restrict__ src, int4* __restrict__ dst, size_t per_block,
                             unsigned long long* marks) {
  const size_t n = per_block / sizeof(int4);
  const int4* s = src + blockIdx.x * n;
  int4* d = dst + blockIdx.x * n;
  unsigned long long* m = marks + blockIdx.x * (kMarks + 2);
  __syncthreads();
  if (threadIdx.x == 0) m[0] = now_ns();
  const size_t piece = (n + kMarks - 1) / kMarks;
  for (int k = 0; k < kMarks; ++k) {
    const size_t begin = k * piece, end = begin + piece < n ? begin + piece : n;
    for (size_t i = begin + threadIdx.x; i < end; i += kThreads) d[i] = s[i];
    __syncthreads();
    if (threadIdx.x == 0) m[1 + k] = now_ns();
  }
  if (threadIdx.x == 0) m[kMarks + 1] = now_ns();
}

int main(int argc, char** argv) {
  int reps = 5;
  for (int i = 1; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], "--reps")) reps = std::atoi(argv[++i]);
  int ngpus = 0;
  CHECK(cudaGetDeviceCount(&ngpus));
  if (ngpus < 2) {
    std::fprintf(stderr, "peer_ramp needs two GPUs\n");
    return 2;
  }
  const std::vector<int> block_counts = {8, 24, 132};
  const std::vector<size_t> sizes = {size_t{256} << 10, size_t{1} << 20, size_t{4} << 20, size_t{16} << 20,
                                     size_t{64} << 20};
  const std::vector<int> launch_counts = {1, 10};
  const size_t most = sizes.back() * 132;
  int4 *src[2], *dst[2];
  unsigned long long* marks[2];
  for (int g = 0; g < 2; ++g) {
    CHECK(cudaSetDevice(g));
    CHECK(cudaDeviceEnablePeerAccess(1 - g, 0));
    CHECK(cudaMalloc(&src[g], most));
    CHECK(cudaMalloc(&dst[g], most));
    CHECK(cudaMemset(src[g], 1, most));
    CHECK(cudaMalloc(&marks[g], 132 * (kMarks + 2) * sizeof(unsigned long long)));
  }
  FILE* ramp = std::fopen("ramp.csv", "w");
  FILE* progress = std::fopen("progress.csv", "w");
  if (!ramp || !progress) return 1;
  std::fprintf(ramp,
               "blocks,bytes_per_block,launches,ns_per_launch,total_gbps,block_ns_min,block_ns_median,block_ns_max,"
               "start_skew_ns\n");
  std::fprintf(progress, "blocks,bytes_per_block,block,sixteenth,ns\n");
  std::vector<unsigned long long> host(132 * (kMarks + 2));
  for (int blocks : block_counts) {
    for (size_t bytes : sizes) {
      for (int launches : launch_counts) {
        struct Run {
          float ms;
          std::vector<unsigned long long> marks;
        };
        std::vector<Run> runs;
        for (int r = 0; r <= reps; ++r) {
          cudaEvent_t a[2], b[2];
          for (int g = 0; g < 2; ++g) {
            CHECK(cudaSetDevice(g));
            CHECK(cudaEventCreate(&a[g]));
            CHECK(cudaEventCreate(&b[g]));
          }
          for (int g = 0; g < 2; ++g) {
            CHECK(cudaSetDevice(g));
            CHECK(cudaEventRecord(a[g]));
            // GPU g stores into GPU 1-g's dst; the first kernel's marks are kept.
            for (int k = 0; k < launches; ++k)
              store_blocks<<<blocks, kThreads>>>(src[g], dst[1 - g], bytes, marks[g]);
            CHECK(cudaEventRecord(b[g]));
          }
          float worst = 0;
          for (int g = 0; g < 2; ++g) {
            CHECK(cudaSetDevice(g));
            CHECK(cudaEventSynchronize(b[g]));
            CHECK(cudaGetLastError());
            float t = 0;
            CHECK(cudaEventElapsedTime(&t, a[g], b[g]));
            worst = std::max(worst, t);
            CHECK(cudaEventDestroy(a[g]));
            CHECK(cudaEventDestroy(b[g]));
          }
          CHECK(cudaSetDevice(0));
          CHECK(cudaMemcpy(host.data(), marks[0], host.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
          if (r > 0) runs.push_back({worst, std::vector<unsigned long long>(host.begin(), host.begin() + blocks * (kMarks + 2))});
        }
        std::sort(runs.begin(), runs.end(), [](const Run& x, const Run& y) { return x.ms < y.ms; });
        const Run& median = runs[runs.size() / 2];
        const double ns = median.ms * 1e6 / launches;
        std::vector<double> block_ns;
        unsigned long long first = ~0ull, last_start = 0;
        for (int b = 0; b < blocks; ++b) {
          const unsigned long long* m = &median.marks[b * (kMarks + 2)];
          block_ns.push_back(static_cast<double>(m[kMarks + 1] - m[0]));
          first = std::min(first, m[0]);
          last_start = std::max(last_start, m[0]);
        }
        std::sort(block_ns.begin(), block_ns.end());
        std::fprintf(ramp, "%d,%zu,%d,%.0f,%.1f,%.0f,%.0f,%.0f,%llu\n", blocks, bytes, launches, ns,
                     static_cast<double>(bytes) * blocks / ns, block_ns.front(), block_ns[block_ns.size() / 2],
                     block_ns.back(), last_start - first);
        if (launches == 1)
          for (int b = 0; b < blocks; ++b)
            for (int k = 1; k <= kMarks; ++k)
              std::fprintf(progress, "%d,%zu,%d,%d,%llu\n", blocks, bytes, b, k,
                           median.marks[b * (kMarks + 2) + k] - first);
        std::fflush(ramp);
      }
    }
  }
  std::fclose(ramp);
  std::fclose(progress);
  return 0;
}
