// block_share: how thread blocks writing into a peer GPU at once share its NVLink, for linkcast's
// model of NCCL's channels (each channel one 512-thread block). A flow model that shares a link
// evenly between its flows has every block finish together; if the link serves some blocks first,
// they finish early and (in NCCL) forward their chunk while the others still arrive.
//
// For each number of blocks B (8, 16, 24, 32) and bytes per block S (128 KiB, 341 KiB = 8 MiB
// over 24 channels, 1 MiB, 4 MiB), B blocks of 544 threads (512 copying, as NCCL's) on GPU 0 each
// copy their own S bytes into GPU 1's memory; every block records %globaltimer when it starts
// and when its last store is done (after __threadfence_system and the block's barrier). One
// warm-up and --reps (default 5) timed launches, all kept.
//
// Output (stdout, CSV): blocks,bytes_per_block,rep,block,sm,start_ns,end_ns
// (start and end relative to the first block's start in that launch; sm: the SM it ran on).
// Build: nvcc -O3 -arch=sm_90 -o block_share tools/record/block_share.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <vector>

#include "record_common.cuh"

constexpr int kCopyThreads = 512;
constexpr int kSyncWarp = 32;

__device__ std::uint64_t global_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ unsigned sm_id() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// Block b copies per_block bytes from src + b*per_block (local) to dst + b*per_block (peer).
// times[3b] = start, times[3b+1] = end, times[3b+2] = SM.
__global__ void write_peer(const int4* __restrict__ src, int4* __restrict__ dst, size_t per_block,
                           std::uint64_t* times) {
  __shared__ std::uint64_t start;
  if (threadIdx.x == 0) start = global_ns();
  __syncthreads();
  if (threadIdx.x < kCopyThreads) {
    const size_t n = per_block / sizeof(int4);
    const int4* s = src + blockIdx.x * n;
    int4* d = dst + blockIdx.x * n;
    constexpr int kUnroll = 4;
    for (size_t base = threadIdx.x; base < n; base += size_t{kCopyThreads} * kUnroll) {
      int4 v[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const size_t i = base + static_cast<size_t>(u) * kCopyThreads;
        if (i < n) v[u] = s[i];
      }
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const size_t i = base + static_cast<size_t>(u) * kCopyThreads;
        if (i < n) d[i] = v[u];
      }
    }
    __threadfence_system();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    times[3 * blockIdx.x] = start;
    times[3 * blockIdx.x + 1] = global_ns();
    times[3 * blockIdx.x + 2] = sm_id();
  }
}

int run(int argc, char** argv) {
  int reps = 5;
  for (int i = 1; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], "--reps")) reps = std::atoi(argv[++i]);
  int ngpus = 0;
  CUDA_CHECK(cudaGetDeviceCount(&ngpus));
  if (ngpus < 2) {
    std::fprintf(stderr, "block_share: %d GPU(s); needs two with peer access\n", ngpus);
    return 0;
  }
  int can = 0;
  CUDA_CHECK(cudaDeviceCanAccessPeer(&can, 0, 1));
  if (!can) {
    std::fprintf(stderr, "block_share: GPU 0 has no peer access to GPU 1\n");
    return 0;
  }
  const std::vector<int> block_counts = {8, 16, 24, 32};
  const std::vector<size_t> sizes = {size_t{128} << 10, size_t{349520}, size_t{1} << 20, size_t{4} << 20};
  const int max_blocks = *std::max_element(block_counts.begin(), block_counts.end());
  const size_t max_size = *std::max_element(sizes.begin(), sizes.end());
  CUDA_CHECK(cudaSetDevice(1));
  int4* dst = nullptr;
  CUDA_CHECK(cudaMalloc(&dst, max_size * max_blocks));
  CUDA_CHECK(cudaSetDevice(0));
  CUDA_CHECK(cudaDeviceEnablePeerAccess(1, 0));
  int4* src = nullptr;
  std::uint64_t* times = nullptr;
  CUDA_CHECK(cudaMalloc(&src, max_size * max_blocks));
  CUDA_CHECK(cudaMemset(src, 1, max_size * max_blocks));
  CUDA_CHECK(cudaMalloc(&times, sizeof(std::uint64_t) * 3 * max_blocks));
  std::vector<std::uint64_t> host(3 * max_blocks);
  std::printf("blocks,bytes_per_block,rep,block,sm,start_ns,end_ns\n");
  for (int blocks : block_counts) {
    for (size_t size : sizes) {
      for (int rep = -1; rep < reps; ++rep) {  // rep -1: warm-up, not printed
        write_peer<<<blocks, kCopyThreads + kSyncWarp>>>(src, dst, size, times);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());
        if (rep < 0) continue;
        CUDA_CHECK(cudaMemcpy(host.data(), times, sizeof(std::uint64_t) * 3 * blocks, cudaMemcpyDeviceToHost));
        std::uint64_t first = host[0];
        for (int b = 0; b < blocks; ++b) first = std::min(first, host[3 * b]);
        for (int b = 0; b < blocks; ++b)
          std::printf("%d,%zu,%d,%d,%llu,%llu,%llu\n", blocks, size, rep, b,
                      static_cast<unsigned long long>(host[3 * b + 2]),
                      static_cast<unsigned long long>(host[3 * b] - first),
                      static_cast<unsigned long long>(host[3 * b + 1] - first));
      }
    }
  }
  return 0;
}

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "block_share: %s\n", e.what());
    return 1;
  }
}
