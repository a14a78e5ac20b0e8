// l2_copy: what a copy within one GPU (cudaMemcpyAsync device-to-device) and a memset
// (cudaMemsetAsync) take by size, with the data in the GPU's L2 cache or not, for linkcast's model
// of device copies. A D2D copy of n bytes reads n and writes n bytes; where both fit in the L2
// cache the copy need not reach HBM at all.
//
// Modes, each at every size (one warm-up, then --reps timed operations, each between two CUDA
// events on one stream, queued behind a kernel so that the host's launch is not timed):
//   copy_warm         the same copy again and again: source and destination stay in L2 where they
//                     fit (a copy benchmark's case); queued behind a kernel that only waits
//   copy_cold         before each copy a kernel reads a scratch buffer of 4 x L2 (clean lines
//                     only), so neither source nor destination is in L2
//   copy_src_written  as copy_cold, then a kernel writes the whole source before the copy (a
//                     tensor a kernel has just produced, copied: a framework's usual case)
//   copy_dirty        as copy_cold, but the kernel before each copy writes the scratch buffer:
//                     the L2 is full of other data's dirty lines, which the copy's writes must
//                     first write back (the state a training step's kernels leave behind)
//   memset_warm       the same memset again and again
//   memset_cold       a memset after the scratch read
//   memset_dirty      a memset after the scratch write
//
// Output: --out FILE (CSV): mode,bytes,rep,ns (every timed operation) and --summary FILE (CSV):
// mode,bytes,reps,median_ns,min_ns,max_ns,gbps (gbps: bytes read + written per ns at the median:
// 2n for copies, n for memsets). stderr: the device, its L2 size and clocks.
// Build: nvcc -O2 -arch=sm_90 -o l2_copy tools/record/l2_copy.cu
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "record_common.cuh"

namespace {

// Reads `n` int4 and writes one value per block: fills L2 with clean lines of the scratch buffer,
// evicting whatever was there, without dirty lines left to write back during the timed copy.
__global__ void read_scratch(const int4* __restrict__ p, size_t n, int* __restrict__ sink) {
  int acc = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const int4 v = p[i];
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x7fffffff) sink[blockIdx.x] = acc;  // keeps the loads; practically never stores
}

// Waits about `ns` nanoseconds touching no memory: queues the next operation without changing L2.
__global__ void spin(unsigned ns) {
  for (unsigned waited = 0; waited < ns; waited += 1000) __nanosleep(1000);
}

// Writes `n` int4: a kernel producing the source of the next copy.
__global__ void write_source(int4* __restrict__ p, size_t n, int value) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = make_int4(value, value + 1, value + 2, value + 3);
}

std::uint64_t parse_size(const std::string& s) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  const std::string unit = end ? end : "";
  double scale = 1;
  if (unit == "K" || unit == "KiB") scale = 1024.0;
  else if (unit == "M" || unit == "MiB") scale = 1024.0 * 1024;
  else if (unit == "G" || unit == "GiB") scale = 1024.0 * 1024 * 1024;
  else if (!unit.empty() && unit != "B") throw std::runtime_error("size '" + s + "': give bytes with B, K, M or G");
  if (!(v > 0)) throw std::runtime_error("size '" + s + "': give a positive size");
  return static_cast<std::uint64_t>(v * scale);
}

struct Case {
  std::string mode;
  std::uint64_t bytes;
  std::vector<float> ms;
};

}  // namespace

int main(int argc, char** argv) try {
  int reps = 30;
  std::string out_path, summary_path;
  std::string sizes_arg = "1B,64K,256K,1M,2M,4M,6M,8M,10M,12M,14M,16M,20M,24M,28M,32M,40M,48M,64M,128M,256M,1G";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--reps") reps = std::atoi(argv[i + 1]);
    else if (a == "--sizes") sizes_arg = argv[i + 1];
    else if (a == "--out") out_path = argv[i + 1];
    else if (a == "--summary") summary_path = argv[i + 1];
    else throw std::runtime_error("unknown option " + a + " (--reps N, --sizes LIST, --out FILE, --summary FILE)");
  }
  if (reps < 1 || out_path.empty() || summary_path.empty())
    throw std::runtime_error("usage: l2_copy --out FILE --summary FILE [--reps N] [--sizes 1B,64K,1M,...]");
  std::vector<std::uint64_t> sizes;
  for (const std::string& s : record::split(sizes_arg)) sizes.push_back(parse_size(s));
  const std::uint64_t largest = *std::max_element(sizes.begin(), sizes.end());

  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  int clock_khz = 0, mem_clock_khz = 0;
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0);
  cudaDeviceGetAttribute(&mem_clock_khz, cudaDevAttrMemoryClockRate, 0);
  std::fprintf(stderr, "device: %s, %d SMs, L2 %d bytes (%.1f MiB), persisting L2 max %d bytes, SM clock %d kHz, memory clock %d kHz\n",
               prop.name, prop.multiProcessorCount, prop.l2CacheSize, prop.l2CacheSize / 1048576.0,
               prop.persistingL2CacheMaxSize, clock_khz, mem_clock_khz);

  const size_t scratch_bytes = static_cast<size_t>(prop.l2CacheSize) * 4;
  char *src = nullptr, *dst = nullptr, *scratch = nullptr;
  int* sink = nullptr;
  CUDA_CHECK(cudaMalloc(&src, largest));
  CUDA_CHECK(cudaMalloc(&dst, largest));
  CUDA_CHECK(cudaMalloc(&scratch, scratch_bytes));
  CUDA_CHECK(cudaMalloc(&sink, 4096 * sizeof(int)));
  CUDA_CHECK(cudaMemset(src, 1, largest));
  CUDA_CHECK(cudaMemset(dst, 0, largest));
  CUDA_CHECK(cudaMemset(scratch, 2, scratch_bytes));
  cudaStream_t stream;
  CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaEvent_t before, after;
  CUDA_CHECK(cudaEventCreate(&before));
  CUDA_CHECK(cudaEventCreate(&after));
  const int grid = prop.multiProcessorCount * 4;

  const auto flush = [&] {
    read_scratch<<<grid, 512, 0, stream>>>(reinterpret_cast<const int4*>(scratch), scratch_bytes / sizeof(int4), sink);
    CUDA_CHECK(cudaGetLastError());
  };
  const auto dirty = [&] {
    write_source<<<grid, 512, 0, stream>>>(reinterpret_cast<int4*>(scratch), scratch_bytes / sizeof(int4), 5);
    CUDA_CHECK(cudaGetLastError());
  };
  const auto produce = [&](std::uint64_t bytes, int rep) {
    write_source<<<grid, 512, 0, stream>>>(reinterpret_cast<int4*>(src), bytes / sizeof(int4), rep);
    CUDA_CHECK(cudaGetLastError());
  };
  const auto operation = [&](const std::string& mode, std::uint64_t bytes) {
    if (mode.rfind("memset", 0) == 0) CUDA_CHECK(cudaMemsetAsync(dst, 3, bytes, stream));
    else CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream));
  };

  const std::vector<std::string> modes = {"copy_warm",   "copy_cold",   "copy_src_written", "copy_dirty",
                                          "memset_warm", "memset_cold", "memset_dirty"};
  std::vector<Case> cases;
  for (const std::string& mode : modes)
    for (const std::uint64_t bytes : sizes) {
      Case c{mode, bytes, {}};
      const bool warm = mode.find("warm") != std::string::npos;
      for (int rep = -1; rep < reps; ++rep) {  // rep -1: the warm-up
        if (warm) {
          spin<<<1, 32, 0, stream>>>(20000);
          CUDA_CHECK(cudaGetLastError());
        } else if (mode.find("dirty") != std::string::npos) {
          dirty();
        } else {
          flush();
        }
        if (mode == "copy_src_written") produce(bytes, rep);
        CUDA_CHECK(cudaEventRecord(before, stream));
        operation(mode, bytes);
        CUDA_CHECK(cudaEventRecord(after, stream));
        CUDA_CHECK(cudaEventSynchronize(after));
        float ms = 0;
        CUDA_CHECK(cudaEventElapsedTime(&ms, before, after));
        if (rep >= 0) c.ms.push_back(ms);
      }
      cases.push_back(std::move(c));
    }

  FILE* out = std::fopen(out_path.c_str(), "w");
  FILE* summary = std::fopen(summary_path.c_str(), "w");
  if (!out || !summary) throw std::runtime_error("cannot write " + (out ? summary_path : out_path));
  std::fprintf(out, "mode,bytes,rep,ns\n");
  std::fprintf(summary, "mode,bytes,reps,median_ns,min_ns,max_ns,gbps\n");
  for (Case& c : cases) {
    for (size_t r = 0; r < c.ms.size(); ++r)
      std::fprintf(out, "%s,%llu,%zu,%.0f\n", c.mode.c_str(), static_cast<unsigned long long>(c.bytes), r, c.ms[r] * 1e6);
    std::vector<float> sorted = c.ms;
    std::sort(sorted.begin(), sorted.end());
    const double median_ns = sorted[sorted.size() / 2] * 1e6;
    const double traffic = static_cast<double>(c.bytes) * (c.mode.rfind("memset", 0) == 0 ? 1 : 2);
    std::fprintf(summary, "%s,%llu,%zu,%.0f,%.0f,%.0f,%.1f\n", c.mode.c_str(), static_cast<unsigned long long>(c.bytes),
                 sorted.size(), median_ns, sorted.front() * 1e6, sorted.back() * 1e6, traffic / median_ns);
  }
  std::fclose(out);
  std::fclose(summary);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "l2_copy: %s\n", e.what());
  return 1;
}
