// interference: copies beside kernels on one GPU, for linkcast's projection of recorded copies
// and its model of how copies and kernels slow each other.
//
// For each copy kind, size and kernel shape, every repetition runs three things in turn, each
// timed with CUDA events on its own stream (copies on one non-blocking stream, kernels on
// another):
//   1. the copy alone;
//   2. the kernel alone;
//   3. the kernel, then at once the copy on the other stream ("beside"): both durations, and
//      the copy's start relative to the kernel's start and its end relative to the kernel's end
//      (all read against one base event that both streams wait for, so no difference is taken
//      between unordered events).
// One warm-up repetition, then --reps (default 7) timed ones; medians per case.
//
// Copy kinds (cudaMemcpyAsync; device buffers cudaMalloc'd, pinned ones cudaHostAlloc'd,
// pageable ones malloc'd and touched before timing):
//   d2d           device -> device (two buffers)
//   h2d_pinned    pinned host -> device
//   d2h_pinned    device -> pinned host
//   h2d_pageable  pageable host -> device (the driver stages it through pinned buffers)
//   d2h_pageable  device -> pageable host
// Sizes: 256 MiB and 64 MiB (--sizes-mib).
// Kernel shapes (the same work on every machine, so that a recording projects onto another):
//   fma_persistent  FP32 FMA loop, exactly enough 256-thread blocks to fill every SM at full
//                   occupancy, ~10 ms on an H100 (8 independent FMA chains per thread)
//   fma_many        the same total work in 100x as many blocks, each 100x shorter
//   mem_persistent  streaming read + write (out = in * a + b, float4) over two 2 GiB buffers,
//                   7 passes (~10 ms on an H100), persistent grid as above
// If a kernel alone runs outside 3..40 ms its work is rescaled to ~10 ms once, and the meta file
// says so (--quick: a quarter of each).
//
// Also a kernel-rate sweep for classing kernels: achieved HBM bandwidth of a streaming copy
// kernel, a triad kernel and cudaMemcpyAsync device-to-device at 256 MiB .. 4 GiB per array, and
// the FP32 rate of the FMA kernels and the bandwidth of mem_persistent.
//
// Outputs (in --out, default .):
//   interference.csv       one row per (copy, bytes, kernel): medians, see CSV_HEADER below
//   interference_reps.csv  every timed repetition
//   kernel_rates.csv       kernel,bytes,flops,ns,gbps,tflops (bytes: read + written per launch;
//                          GB/s = 1e9 B/s; TFLOP/s = 1e12 FLOP/s; ns the median of the reps)
//   interference_meta.txt  device properties (name, SMs, clocks, memory clock and bus width,
//                          L2, copy engines), kernel shapes and work, the SM clock measured
//                          during the FMA kernel, options
// Flags: --quick (64 MiB only, 3 reps, kernels ~4x shorter, arrays to 1 GiB), --out DIR,
// --reps N, --sizes-mib 256,64, --copies d2d,..., --kernels fma_persistent,...
// Runs in about 15-30 s on an H100 (under 60 s).
//
// Build: nvcc -O2 -arch=sm_90 -o interference interference.cu

#include <cuda_runtime.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "record_common.cuh"

namespace {

using record::split;

constexpr size_t kMiB = size_t{1} << 20;
constexpr size_t kGiB = size_t{1} << 30;
constexpr int kThreads = 256;           // threads per block of every kernel
constexpr int kManyFactor = 100;        // fma_many: this many times the blocks, as much shorter
constexpr int kFmaChains = 8;           // independent FMA chains per thread
constexpr int kFmaIters = 140000;       // fma_persistent: ~10 ms on an H100 (~60 TFLOP/s FP32)
constexpr int kMemPasses = 7;           // mem_persistent: ~10 ms on an H100 over 2 x 2 GiB
constexpr size_t kMemBufBytes = 2 * kGiB;
constexpr double kTargetMs = 10.0;      // rescale target when a kernel is far off
constexpr double kSaneLowMs = 3.0;
constexpr double kSaneHighMs = 40.0;
constexpr unsigned kSinkFloats = 4096;

const char* const CSV_HEADER =
    "copy,bytes,kernel,reps,copy_alone_ns,copy_beside_ns,kernel_alone_ns,kernel_beside_ns,"
    "copy_start_offset_ns,copy_end_offset_ns,copy_alone_gbps,copy_beside_gbps,kernel_blocks,"
    "kernel_threads_per_block,kernel_work,sm_count,sm_clock_mhz";
const char* const REPS_HEADER =
    "copy,bytes,kernel,rep,copy_alone_ns,copy_beside_ns,kernel_alone_ns,kernel_beside_ns,"
    "copy_start_offset_ns,copy_end_offset_ns";

// ---------------------------------------------------------------------------------------------
// Kernels

// Compute-bound fill: `iters` rounds of kFmaChains dependent FMAs per thread. Block 0's thread 0
// writes its clock64() and %globaltimer spans into clock_out[0..1] (the SM clock while busy).
__global__ void fma_kernel(float* sink, long long* clock_out, int iters, float seed) {
  const long long c0 = clock64();
  unsigned long long t0 = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  float a[kFmaChains];
#pragma unroll
  for (int k = 0; k < kFmaChains; ++k) a[k] = seed + 1e-3f * static_cast<float>(threadIdx.x + k);
  const float m = 0.9999999f;
  const float c = 1e-7f;
#pragma unroll 4
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < kFmaChains; ++k) a[k] = fmaf(a[k], m, c);
  }
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < kFmaChains; ++k) s += a[k];
  if (s == -1.0f) sink[blockIdx.x % kSinkFloats] = s;  // never true: keeps the work live
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    unsigned long long t1 = 0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    clock_out[0] = clock64() - c0;
    clock_out[1] = static_cast<long long>(t1 - t0);
  }
}

// Memory-bound fill: `passes` times out = in * 1.0001 + pass over n4 float4s, grid-stride.
__global__ void stream_kernel(const float4* __restrict__ in, float4* __restrict__ out, size_t n4,
                              int passes) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (int p = 0; p < passes; ++p) {
    const float add = static_cast<float>(p);
    for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n4;
         i += stride) {
      float4 v = in[i];
      v.x = v.x * 1.0001f + add;
      v.y = v.y * 1.0001f + add;
      v.z = v.z * 1.0001f + add;
      v.w = v.w * 1.0001f + add;
      out[i] = v;
    }
  }
}

__global__ void copy_kernel(const float4* __restrict__ in, float4* __restrict__ out, size_t n4) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n4; i += stride) {
    out[i] = in[i];
  }
}

// a = b + s * c
__global__ void triad_kernel(float4* __restrict__ a, const float4* __restrict__ b,
                             const float4* __restrict__ c, float s, size_t n4) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n4; i += stride) {
    const float4 x = b[i];
    const float4 y = c[i];
    a[i] = make_float4(fmaf(s, y.x, x.x), fmaf(s, y.y, x.y), fmaf(s, y.z, x.z), fmaf(s, y.w, x.w));
  }
}

// ---------------------------------------------------------------------------------------------
// Device, buffers, events

struct DeviceInfo {
  cudaDeviceProp prop{};
  int sm_clock_khz = 0;
  int mem_clock_khz = 0;
  int bus_width_bits = 0;
  int driver_version = 0;
  int runtime_version = 0;
  int fma_blocks_per_sm = 0;
  int stream_blocks_per_sm = 0;
  int copy_blocks_per_sm = 0;
  int triad_blocks_per_sm = 0;
};

DeviceInfo query_device() {
  DeviceInfo d;
  CUDA_CHECK(cudaSetDevice(0));
  CUDA_CHECK(cudaGetDeviceProperties(&d.prop, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&d.sm_clock_khz, cudaDevAttrClockRate, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&d.mem_clock_khz, cudaDevAttrMemoryClockRate, 0));
  CUDA_CHECK(cudaDeviceGetAttribute(&d.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
  CUDA_CHECK(cudaDriverGetVersion(&d.driver_version));
  CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime_version));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&d.fma_blocks_per_sm, fma_kernel,
                                                           kThreads, 0));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&d.stream_blocks_per_sm, stream_kernel,
                                                           kThreads, 0));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&d.copy_blocks_per_sm, copy_kernel,
                                                           kThreads, 0));
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&d.triad_blocks_per_sm, triad_kernel,
                                                           kThreads, 0));
  return d;
}

// A device allocation, freed on destruction.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t bytes, int fill) : bytes_(bytes) {
    CUDA_CHECK(cudaMalloc(&p_, bytes));
    CUDA_CHECK(cudaMemset(p_, fill, bytes));
  }
  ~DeviceBuffer() { cudaFree(p_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return p_; }
  size_t size() const { return bytes_; }

 private:
  void* p_ = nullptr;
  size_t bytes_;
};

// Pinned (cudaHostAlloc) or pageable (aligned_alloc) host memory, every page touched.
class HostBuffer {
 public:
  HostBuffer(size_t bytes, bool pinned) : pinned_(pinned) {
    if (pinned) {
      CUDA_CHECK(cudaHostAlloc(&p_, bytes, cudaHostAllocDefault));
    } else {
      p_ = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
      if (p_ == nullptr) throw std::runtime_error("cannot allocate a pageable host buffer");
    }
    std::memset(p_, 0x5a, bytes);
  }
  ~HostBuffer() {
    if (pinned_) {
      cudaFreeHost(p_);
    } else {
      std::free(p_);
    }
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  void* get() const { return p_; }

 private:
  void* p_ = nullptr;
  bool pinned_;
};

class Event {
 public:
  Event() { CUDA_CHECK(cudaEventCreate(&e_)); }
  ~Event() { cudaEventDestroy(e_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  operator cudaEvent_t() const { return e_; }

 private:
  cudaEvent_t e_ = nullptr;
};

class Stream {
 public:
  Stream() { CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() {
    cudaStreamSynchronize(s_);
    cudaStreamDestroy(s_);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  operator cudaStream_t() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

// ns from a to b (both recorded and complete); may be negative only if b precedes a.
double ns_between(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
  return static_cast<double>(ms) * 1e6;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2.0;
}

// ---------------------------------------------------------------------------------------------
// Kernel shapes

struct Shape {
  std::string name;
  int blocks = 0;
  long long work = 0;  // FMA iterations per thread, or passes
  double flops = 0.0;  // per launch
  double bytes = 0.0;  // read + written per launch
  std::function<void(cudaStream_t)> launch;
};

struct Fills {
  DeviceBuffer mem_in;
  DeviceBuffer mem_out;
  DeviceBuffer sink;
  DeviceBuffer clocks;
  explicit Fills(size_t mem_bytes)
      : mem_in(mem_bytes, 0), mem_out(mem_bytes, 0), sink(kSinkFloats * sizeof(float), 0),
        clocks(2 * sizeof(long long), 0) {}
};

Shape fma_shape(const std::string& name, Fills& f, int blocks, int iters) {
  Shape s;
  s.name = name;
  s.blocks = blocks;
  s.work = iters;
  s.flops = 2.0 * kFmaChains * static_cast<double>(iters) * blocks * kThreads;
  float* sink = static_cast<float*>(f.sink.get());
  long long* clocks = static_cast<long long*>(f.clocks.get());
  s.launch = [=](cudaStream_t st) {
    fma_kernel<<<blocks, kThreads, 0, st>>>(sink, clocks, iters, 1.0f);
    CUDA_CHECK(cudaGetLastError());
  };
  return s;
}

Shape mem_shape(const DeviceInfo& d, Fills& f, int passes) {
  Shape s;
  s.name = "mem_persistent";
  s.blocks = d.stream_blocks_per_sm * d.prop.multiProcessorCount;
  s.work = passes;
  const size_t n4 = f.mem_in.size() / sizeof(float4);
  s.bytes = 2.0 * static_cast<double>(f.mem_in.size()) * passes;
  s.flops = 8.0 * static_cast<double>(n4) * passes;
  const float4* in = static_cast<const float4*>(f.mem_in.get());
  float4* out = static_cast<float4*>(f.mem_out.get());
  const int blocks = s.blocks;
  s.launch = [=](cudaStream_t st) {
    stream_kernel<<<blocks, kThreads, 0, st>>>(in, out, n4, passes);
    CUDA_CHECK(cudaGetLastError());
  };
  return s;
}

// Median ns of `reps` launches of `shape` alone on `st`, after one warm-up launch.
double time_alone(const Shape& shape, cudaStream_t st, int reps) {
  Event a, b;
  std::vector<double> ns;
  for (int r = -1; r < reps; ++r) {
    CUDA_CHECK(cudaEventRecord(a, st));
    shape.launch(st);
    CUDA_CHECK(cudaEventRecord(b, st));
    CUDA_CHECK(cudaEventSynchronize(b));
    if (r >= 0) ns.push_back(ns_between(a, b));
  }
  return median(ns);
}

// Scales `work` so that a kernel that took `ms` takes about target_ms; 0 when it needs none
// (`ms` within kSaneLowMs..kSaneHighMs, both times scale).
long long rescaled(long long work, double ms, double target_ms, double scale) {
  if (ms >= kSaneLowMs * scale && ms <= kSaneHighMs * scale) return 0;
  if (ms <= 0.0) return 0;
  return std::max<long long>(1, std::llround(static_cast<double>(work) * target_ms / ms));
}

// ---------------------------------------------------------------------------------------------
// Copies

struct CopyKind {
  const char* name;
  cudaMemcpyKind kind;
  bool host_pinned;  // for the host end
  bool d2d;
  bool to_device;
};

const CopyKind kCopyKinds[] = {
    {"d2d", cudaMemcpyDeviceToDevice, false, true, true},
    {"h2d_pinned", cudaMemcpyHostToDevice, true, false, true},
    {"d2h_pinned", cudaMemcpyDeviceToHost, true, false, false},
    {"h2d_pageable", cudaMemcpyHostToDevice, false, false, true},
    {"d2h_pageable", cudaMemcpyDeviceToHost, false, false, false},
};

struct CopyBuffers {
  DeviceBuffer dev_a;
  DeviceBuffer dev_b;
  HostBuffer pinned;
  HostBuffer pageable;
  explicit CopyBuffers(size_t bytes)
      : dev_a(bytes, 0x5a), dev_b(bytes, 0), pinned(bytes, true), pageable(bytes, false) {}
};

void issue_copy(const CopyKind& k, CopyBuffers& b, size_t bytes, cudaStream_t st) {
  void* host = k.host_pinned ? b.pinned.get() : b.pageable.get();
  void* dst = k.d2d ? b.dev_b.get() : (k.to_device ? b.dev_a.get() : host);
  const void* src = k.d2d ? b.dev_a.get() : (k.to_device ? host : b.dev_a.get());
  CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, k.kind, st));
}

struct Rep {
  double copy_alone = 0, copy_beside = 0, kernel_alone = 0, kernel_beside = 0;
  double start_offset = 0, end_offset = 0;
};

struct Streams {
  Stream copy;
  Stream kernel;
  Event base, cs, ce, ks, ke;
};

// One repetition: copy alone, kernel alone, then both (kernel first, copy right after).
Rep run_rep(const CopyKind& k, CopyBuffers& b, size_t bytes, const Shape& shape, Streams& s) {
  Rep r;
  CUDA_CHECK(cudaEventRecord(s.cs, s.copy));
  issue_copy(k, b, bytes, s.copy);
  CUDA_CHECK(cudaEventRecord(s.ce, s.copy));
  CUDA_CHECK(cudaEventSynchronize(s.ce));
  r.copy_alone = ns_between(s.cs, s.ce);

  CUDA_CHECK(cudaEventRecord(s.ks, s.kernel));
  shape.launch(s.kernel);
  CUDA_CHECK(cudaEventRecord(s.ke, s.kernel));
  CUDA_CHECK(cudaEventSynchronize(s.ke));
  r.kernel_alone = ns_between(s.ks, s.ke);

  // Together. `base` precedes everything on both streams, so every time is read from it.
  CUDA_CHECK(cudaEventRecord(s.base, s.kernel));
  CUDA_CHECK(cudaEventRecord(s.ks, s.kernel));
  shape.launch(s.kernel);
  CUDA_CHECK(cudaEventRecord(s.ke, s.kernel));
  CUDA_CHECK(cudaStreamWaitEvent(s.copy, s.base, 0));
  CUDA_CHECK(cudaEventRecord(s.cs, s.copy));
  issue_copy(k, b, bytes, s.copy);
  CUDA_CHECK(cudaEventRecord(s.ce, s.copy));
  CUDA_CHECK(cudaStreamSynchronize(s.copy));
  CUDA_CHECK(cudaStreamSynchronize(s.kernel));
  const double ks = ns_between(s.base, s.ks), ke = ns_between(s.base, s.ke);
  const double cs = ns_between(s.base, s.cs), ce = ns_between(s.base, s.ce);
  r.copy_beside = ce - cs;
  r.kernel_beside = ke - ks;
  r.start_offset = cs - ks;
  r.end_offset = ce - ke;
  return r;
}

// ---------------------------------------------------------------------------------------------
// Options

struct Options {
  bool quick = false;
  std::string out = ".";
  int reps = 7;
  std::vector<size_t> sizes_mib = {256, 64};
  std::vector<std::string> copies;   // empty: all
  std::vector<std::string> kernels;  // empty: all
};

[[noreturn]] void usage(const std::string& msg) {
  std::fprintf(stderr,
               "interference: %s\n"
               "usage: interference [--quick] [--out DIR] [--reps N] [--sizes-mib 256,64]\n"
               "                    [--copies d2d,h2d_pinned,...] [--kernels fma_persistent,...]\n",
               msg.c_str());
  std::exit(2);
}

long parse_long(const std::string& s) {
  char* end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (end == s.c_str() || *end != '\0' || v < 0) usage("not a non-negative integer: " + s);
  return v;
}

Options parse_options(int argc, char** argv) {
  Options opt;
  bool reps_set = false, sizes_set = false;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--quick") {
      opt.quick = true;
      continue;
    }
    if (i + 1 >= argc) usage("missing value for " + flag);
    const std::string value = argv[++i];
    if (flag == "--out") {
      opt.out = value;
    } else if (flag == "--reps") {
      opt.reps = static_cast<int>(parse_long(value));
      reps_set = true;
    } else if (flag == "--sizes-mib") {
      opt.sizes_mib.clear();
      for (const std::string& s : split(value)) opt.sizes_mib.push_back(parse_long(s));
      sizes_set = true;
    } else if (flag == "--copies") {
      opt.copies = split(value);
    } else if (flag == "--kernels") {
      opt.kernels = split(value);
    } else {
      usage("unknown flag: " + flag);
    }
  }
  if (opt.quick) {
    if (!reps_set) opt.reps = 3;
    if (!sizes_set) opt.sizes_mib = {64};
  }
  if (opt.reps < 1) usage("--reps must be at least 1");
  if (opt.sizes_mib.empty()) usage("--sizes-mib is empty");
  return opt;
}

bool selected(const std::vector<std::string>& list, const std::string& name) {
  return list.empty() || std::find(list.begin(), list.end(), name) != list.end();
}

FILE* open_output(const std::string& path, const char* header) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  if (header != nullptr) std::fprintf(f, "%s\n", header);
  return f;
}

// ---------------------------------------------------------------------------------------------
// Kernel rates

struct RateRow {
  std::string kernel;
  double bytes, flops, ns;
};

void write_rate(FILE* f, const RateRow& r) {
  const double gbps = r.ns > 0 ? r.bytes / r.ns : 0.0;
  const double tflops = r.ns > 0 ? r.flops / r.ns * 1e-3 : 0.0;
  std::fprintf(f, "%s,%.0f,%.0f,%.0f,%.6g,%.6g\n", r.kernel.c_str(), r.bytes, r.flops, r.ns, gbps,
               tflops);
  std::fflush(f);
  std::printf("interference: rate %-15s %12.0f B %14.0f FLOP %10.1f us  %8.1f GB/s  %7.2f TFLOP/s\n",
              r.kernel.c_str(), r.bytes, r.flops, r.ns * 1e-3, gbps, tflops);
}

// Streaming copy kernel, triad and cudaMemcpyAsync D2D at each array size up to max_bytes.
int rate_sweep(const DeviceInfo& d, cudaStream_t st, size_t max_bytes, int reps, FILE* f) {
  int failures = 0;
  const int sms = d.prop.multiProcessorCount;
  for (size_t bytes = 256 * kMiB; bytes <= max_bytes; bytes *= 2) {
    try {
      const size_t n4 = bytes / sizeof(float4);
      DeviceBuffer a(bytes, 0), b(bytes, 0), c(bytes, 0);
      float4* pa = static_cast<float4*>(a.get());
      const float4* pb = static_cast<const float4*>(b.get());
      const float4* pc = static_cast<const float4*>(c.get());
      const int copy_blocks = d.copy_blocks_per_sm * sms;
      const int triad_blocks = d.triad_blocks_per_sm * sms;
      Shape copy{"copy_kernel", copy_blocks, 1, 0.0, 2.0 * bytes,
                 [=](cudaStream_t s) {
                   copy_kernel<<<copy_blocks, kThreads, 0, s>>>(pb, pa, n4);
                   CUDA_CHECK(cudaGetLastError());
                 }};
      Shape triad{"triad_kernel", triad_blocks, 1, 2.0 * 4 * n4, 3.0 * bytes,
                  [=](cudaStream_t s) {
                    triad_kernel<<<triad_blocks, kThreads, 0, s>>>(pa, pb, pc, 0.5f, n4);
                    CUDA_CHECK(cudaGetLastError());
                  }};
      Shape memcpy_d2d{"memcpy_d2d", 0, 1, 0.0, 2.0 * bytes, [=](cudaStream_t s) {
                         CUDA_CHECK(cudaMemcpyAsync(pa, pb, bytes, cudaMemcpyDeviceToDevice, s));
                       }};
      for (const Shape* k : {&copy, &triad, &memcpy_d2d}) {
        write_rate(f, {k->name, k->bytes, k->flops, time_alone(*k, st, reps)});
      }
    } catch (const std::exception& e) {
      ++failures;
      std::fprintf(stderr, "interference: FAILED rate sweep at %zu bytes: %s\n", bytes, e.what());
      cudaGetLastError();
    }
  }
  return failures;
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress lines appear at once, also in a log
  const Options opt = parse_options(argc, argv);
  const auto t_start = std::chrono::steady_clock::now();
  int failures = 0;
  try {
    const DeviceInfo d = query_device();
    const cudaDeviceProp& p = d.prop;
    const int sms = p.multiProcessorCount;
    const double peak_hbm_gbps = 2.0 * d.mem_clock_khz * 1e3 * (d.bus_width_bits / 8.0) / 1e9;
    std::printf("interference: %s, %d SMs, SM clock %d MHz, memory clock %d MHz x %d bits "
                "(%.0f GB/s peak), %d copy engines, fma %d blocks/SM, stream %d blocks/SM\n",
                p.name, sms, d.sm_clock_khz / 1000, d.mem_clock_khz / 1000, d.bus_width_bits,
                peak_hbm_gbps, p.asyncEngineCount, d.fma_blocks_per_sm, d.stream_blocks_per_sm);

    const double scale = opt.quick ? 0.25 : 1.0;  // kernel length
    const size_t mem_bytes = opt.quick ? kMemBufBytes / 4 : kMemBufBytes;
    Fills fills(mem_bytes);
    Streams s;
    std::string notes;

    // Kernel shapes, checked once alone and rescaled if far from ~10 ms.
    const int persistent_blocks = d.fma_blocks_per_sm * sms;
    int iters = std::max(kManyFactor, static_cast<int>(kFmaIters * scale) / kManyFactor * kManyFactor);
    int passes = kMemPasses;
    Shape probe = fma_shape("fma_persistent", fills, persistent_blocks, iters);
    const double fma_ms = time_alone(probe, s.kernel, 2) * 1e-6;
    if (const long long w = rescaled(iters, fma_ms, kTargetMs * scale, scale)) {
      const int new_iters = static_cast<int>(std::max<long long>(kManyFactor, w / kManyFactor * kManyFactor));
      notes += "fma iters rescaled from " + std::to_string(iters) + " (" + std::to_string(fma_ms) +
               " ms) to " + std::to_string(new_iters) + "\n";
      iters = new_iters;
    }
    Shape mem_probe = mem_shape(d, fills, passes);
    const double mem_ms = time_alone(mem_probe, s.kernel, 2) * 1e-6;
    if (const long long w = rescaled(passes, mem_ms, kTargetMs * scale, scale)) {
      notes += "mem passes rescaled from " + std::to_string(passes) + " (" +
               std::to_string(mem_ms) + " ms) to " + std::to_string(w) + "\n";
      passes = static_cast<int>(w);
    }
    if (!notes.empty()) std::printf("interference: %s", notes.c_str());
    std::vector<Shape> shapes = {
        fma_shape("fma_persistent", fills, persistent_blocks, iters),
        fma_shape("fma_many", fills, persistent_blocks * kManyFactor, iters / kManyFactor),
        mem_shape(d, fills, passes)};

    FILE* csv = open_output(opt.out + "/interference.csv", CSV_HEADER);
    FILE* reps_csv = open_output(opt.out + "/interference_reps.csv", REPS_HEADER);
    size_t max_copy = 0;
    for (size_t m : opt.sizes_mib) max_copy = std::max(max_copy, m * kMiB);
    {
      CopyBuffers bufs(max_copy);
      for (const CopyKind& k : kCopyKinds) {
        if (!selected(opt.copies, k.name)) continue;
        for (size_t mib : opt.sizes_mib) {
          const size_t bytes = mib * kMiB;
          for (const Shape& shape : shapes) {
            if (!selected(opt.kernels, shape.name)) continue;
            try {
              std::vector<Rep> reps;
              for (int r = -1; r < opt.reps; ++r) {
                const Rep rep = run_rep(k, bufs, bytes, shape, s);
                if (r < 0) continue;
                reps.push_back(rep);
                std::fprintf(reps_csv, "%s,%zu,%s,%d,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f\n", k.name,
                             bytes, shape.name.c_str(), r, rep.copy_alone, rep.copy_beside,
                             rep.kernel_alone, rep.kernel_beside, rep.start_offset,
                             rep.end_offset);
              }
              const auto med = [&reps](double Rep::*field) {
                std::vector<double> v;
                for (const Rep& r : reps) v.push_back(r.*field);
                return median(v);
              };
              const double ca = med(&Rep::copy_alone), cb = med(&Rep::copy_beside);
              const double ka = med(&Rep::kernel_alone), kb = med(&Rep::kernel_beside);
              const double so = med(&Rep::start_offset), eo = med(&Rep::end_offset);
              std::fprintf(csv, "%s,%zu,%s,%zu,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f,%.6g,%.6g,%d,%d,%lld,%d,%d\n",
                           k.name, bytes, shape.name.c_str(), reps.size(), ca, cb, ka, kb, so, eo,
                           ca > 0 ? bytes / ca : 0.0, cb > 0 ? bytes / cb : 0.0, shape.blocks,
                           kThreads, shape.work, sms, d.sm_clock_khz / 1000);
              std::fflush(csv);
              std::fflush(reps_csv);
              std::printf("interference: %-12s %4zu MiB beside %-14s copy %8.1f -> %8.1f us, "
                          "kernel %8.1f -> %8.1f us, copy starts %+8.1f us, ends %+8.1f us\n",
                          k.name, mib, shape.name.c_str(), ca * 1e-3, cb * 1e-3, ka * 1e-3,
                          kb * 1e-3, so * 1e-3, eo * 1e-3);
            } catch (const std::exception& e) {
              ++failures;
              std::fprintf(stderr, "interference: FAILED %s %zu MiB %s: %s\n", k.name, mib,
                           shape.name.c_str(), e.what());
              cudaGetLastError();  // clear a non-sticky error so that the next case can run
              cudaDeviceSynchronize();
            }
          }
        }
      }
    }
    std::fclose(csv);
    std::fclose(reps_csv);

    // Kernel rates: the fill kernels themselves, then the sweep.
    FILE* rates = open_output(opt.out + "/kernel_rates.csv", "kernel,bytes,flops,ns,gbps,tflops");
    const int rate_reps = opt.quick ? 3 : 5;
    long long clocks_host[2] = {0, 0};
    for (const Shape& shape : shapes) {
      try {
        write_rate(rates, {shape.name, shape.bytes, shape.flops, time_alone(shape, s.kernel, rate_reps)});
        if (shape.name == "fma_persistent") {
          CUDA_CHECK(cudaMemcpy(clocks_host, fills.clocks.get(), sizeof clocks_host,
                                cudaMemcpyDeviceToHost));
        }
      } catch (const std::exception& e) {
        ++failures;
        std::fprintf(stderr, "interference: FAILED rate of %s: %s\n", shape.name.c_str(), e.what());
        cudaGetLastError();
      }
    }
    failures += rate_sweep(d, s.kernel, opt.quick ? kGiB : 4 * kGiB, rate_reps, rates);
    std::fclose(rates);
    const double measured_mhz =
        clocks_host[1] > 0 ? static_cast<double>(clocks_host[0]) / clocks_host[1] * 1e3 : 0.0;

    FILE* meta = open_output(opt.out + "/interference_meta.txt", nullptr);
    std::fprintf(meta,
                 "device: %s\n"
                 "pci_bus_id: %04x:%02x:%02x\n"
                 "compute_capability: %d.%d\n"
                 "sm_count: %d\n"
                 "sm_clock_peak_khz: %d\n"
                 "sm_clock_measured_mhz: %.0f  (clock64 / globaltimer of block 0 of fma_persistent)\n"
                 "memory_clock_peak_khz: %d\n"
                 "memory_bus_width_bits: %d\n"
                 "memory_peak_gbps: %.1f  (2 x memory clock x bus width)\n"
                 "total_global_mem_bytes: %zu\n"
                 "l2_cache_bytes: %d\n"
                 "async_engine_count: %d\n"
                 "concurrent_kernels: %d\n"
                 "max_threads_per_sm: %d\n"
                 "regs_per_sm: %d\n"
                 "shared_mem_per_sm_bytes: %zu\n"
                 "driver_version: %d\n"
                 "runtime_version: %d\n"
                 "threads_per_block: %d\n"
                 "fma_blocks_per_sm: %d\n"
                 "stream_blocks_per_sm: %d\n"
                 "copy_blocks_per_sm: %d\n"
                 "triad_blocks_per_sm: %d\n"
                 "fma_persistent: %d blocks x %d threads, %d iterations x %d FMA chains\n"
                 "fma_many: %d blocks x %d threads, %d iterations x %d FMA chains\n"
                 "mem_persistent: %d blocks x %d threads, %d passes over 2 x %zu bytes\n"
                 "fma_probe_ms: %.3f\n"
                 "mem_probe_ms: %.3f\n"
                 "rescaled: %s\n"
                 "options: quick=%d reps=%d sizes_mib=",
                 p.name, p.pciDomainID, p.pciBusID, p.pciDeviceID, p.major, p.minor, sms,
                 d.sm_clock_khz, measured_mhz, d.mem_clock_khz, d.bus_width_bits, peak_hbm_gbps,
                 p.totalGlobalMem, p.l2CacheSize, p.asyncEngineCount, p.concurrentKernels,
                 p.maxThreadsPerMultiProcessor, p.regsPerMultiprocessor,
                 p.sharedMemPerMultiprocessor, d.driver_version, d.runtime_version, kThreads,
                 d.fma_blocks_per_sm, d.stream_blocks_per_sm, d.copy_blocks_per_sm,
                 d.triad_blocks_per_sm, shapes[0].blocks, kThreads, iters, kFmaChains,
                 shapes[1].blocks, kThreads, iters / kManyFactor, kFmaChains, shapes[2].blocks,
                 kThreads, passes, mem_bytes, fma_ms, mem_ms, notes.empty() ? "no" : "yes",
                 opt.quick ? 1 : 0, opt.reps);
    for (size_t i = 0; i < opt.sizes_mib.size(); ++i) {
      std::fprintf(meta, "%s%zu", i ? "," : "", opt.sizes_mib[i]);
    }
    std::fprintf(meta, "\n");
    if (!notes.empty()) std::fprintf(meta, "%s", notes.c_str());
    std::fprintf(meta, "failures: %d\nwall_s: %.1f\n", failures,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count());
    std::fclose(meta);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "interference: %s\n", e.what());
    return 1;
  }
  std::printf("interference: done in %.1f s, %d failure(s)\n",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t_start).count(),
              failures);
  return failures == 0 ? 0 : 1;
}
