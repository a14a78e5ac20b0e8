// copybench: ground-truth copy and access timings for linkcast.
//
// Times one operation at a time over a sweep of sizes: each timed repetition is bracketed by
// cudaEventRecord on the stream that issues it, then synchronized; the CPU wall time of the same
// repetition (std::chrono::steady_clock, from before the first record to after the synchronize)
// is kept too. Outputs:
//   --trace     linkcast CSV trace, one row per timed repetition
//               (kind,src,dst,bytes,src_mem,dst_mem,start_ns,duration_ns,stream,object,line,
//               issuer; issuer is the GPU running the kernel of an `access`, empty for copies);
//   --summary   one row per (mode, src, dst, bytes): event-time statistics and bandwidth;
//   --reps-out  one row per timed repetition: event time and CPU wall time side by side.
//
// Modes (data moves src -> dst; "a" and "b" are GPUs, host memory is cpu0):
//   h2d_pinned, h2d_pageable   cudaMemcpyAsync cpu0 -> a
//   d2h_pinned, d2h_pageable   cudaMemcpyAsync a -> cpu0
//   d2d                        cudaMemcpyAsync a -> a (two buffers)
//   zerocopy_read              kernel on a loads mapped pinned host memory   (cpu0 -> a)
//   zerocopy_write             kernel on a stores to mapped pinned host memory (a -> cpu0)
//   p2p_peer                   cudaMemcpyPeerAsync a -> b, peer access enabled both ways
//   p2p_nopeer                 cudaMemcpyPeerAsync a -> b, peer access disabled both ways
//   sm_peer_read               kernel on a loads b's memory  (b -> a)
//   sm_peer_write              kernel on a stores to b's memory (a -> b)
// Copies are trace kind `copy`, kernel loads/stores kind `access`. Pair modes run for every
// ordered pair of the selected GPUs, the others for every selected GPU.
//
// Build: nvcc -O2 -arch=sm_90 -o copybench copybench.cu

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

// ---------------------------------------------------------------------------------------------
// Errors

// Runs a CUDA call that moves data and evaluates to the source line of that call, which the
// trace's `line` column reports.
#define TRACED_CALL(call) (CUDA_CHECK(call), __LINE__)

// ---------------------------------------------------------------------------------------------
// Modes

enum class ModeId {
  kH2dPinned,
  kH2dPageable,
  kD2hPinned,
  kD2hPageable,
  kD2d,
  kZerocopyRead,
  kZerocopyWrite,
  kP2pPeer,
  kP2pNopeer,
  kSmPeerRead,
  kSmPeerWrite,
};

struct Mode {
  ModeId id;
  const char* name;
  bool pair;      // needs two GPUs (runs for each ordered pair)
  bool kernel;    // a kernel moves the data (trace kind `access`, sizes from kKernelMinBytes)
  bool pageable;  // involves pageable host memory (fewer repetitions at 1 GiB)
};

// In run order: the fast modes first and the slow staged ones (pageable, peer access off) last,
// so that a run cut short by its time limit loses the least.
const Mode kModes[] = {
    {ModeId::kH2dPinned, "h2d_pinned", false, false, false},
    {ModeId::kD2hPinned, "d2h_pinned", false, false, false},
    {ModeId::kD2d, "d2d", false, false, false},
    {ModeId::kP2pPeer, "p2p_peer", true, false, false},
    {ModeId::kSmPeerRead, "sm_peer_read", true, true, false},
    {ModeId::kSmPeerWrite, "sm_peer_write", true, true, false},
    {ModeId::kZerocopyRead, "zerocopy_read", false, true, false},
    {ModeId::kZerocopyWrite, "zerocopy_write", false, true, false},
    {ModeId::kH2dPageable, "h2d_pageable", false, false, true},
    {ModeId::kD2hPageable, "d2h_pageable", false, false, true},
    {ModeId::kP2pNopeer, "p2p_nopeer", true, false, false},
};

constexpr size_t kKernelMinBytes = 4096;  // kernel modes move whole 16-byte words from here up
constexpr size_t kGiB = size_t{1} << 30;
constexpr size_t kMiB = size_t{1} << 20;

// Timed repetitions per size unless --reps overrides: 20 up to 64 MiB, 10 above, and 5 at
// 1 GiB and over for the slow pageable paths.
int default_reps(const Mode& m, size_t bytes) {
  if (m.pageable && bytes >= kGiB) return 5;
  return bytes <= 64 * kMiB ? 20 : 10;
}

// ---------------------------------------------------------------------------------------------
// Kernels: grid-stride loops over 16-byte words, kUnroll independent accesses in flight per
// thread, enough blocks to fill every SM several times over.

constexpr int kThreads = 512;
constexpr int kBlocksPerSm = 4;
constexpr int kUnroll = 4;
constexpr unsigned kSinkMagic = 0x9e3779b9u;

// Loads every word with ld.global.cv (never served from a possibly stale cached line, so each
// repetition crosses the link) and folds them into one value; the conditional store keeps the
// loads from being optimised away.
__global__ void read_kernel(const uint4* __restrict__ src, size_t words, unsigned* sink) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned acc = 0;
  for (; i + (kUnroll - 1) * stride < words; i += kUnroll * stride) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = __ldcv(src + i + u * stride);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  for (; i < words; i += stride) {
    const uint4 v = __ldcv(src + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == kSinkMagic) *sink = acc;
}

// Stores every word (no loads).
__global__ void write_kernel(uint4* __restrict__ dst, size_t words) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < words;
       i += stride) {
    const unsigned x = static_cast<unsigned>(i);
    dst[i] = make_uint4(x, x + 1, x + 2, x + 3);
  }
}

int grid_for(size_t words, int sm_count) {
  const size_t needed = (words + kThreads - 1) / kThreads;
  return static_cast<int>(std::min<size_t>(needed, static_cast<size_t>(sm_count) * kBlocksPerSm));
}

cudaError_t launch_read(const void* src, size_t bytes, unsigned* sink, int sm_count,
                        cudaStream_t s) {
  const size_t words = bytes / sizeof(uint4);
  read_kernel<<<grid_for(words, sm_count), kThreads, 0, s>>>(static_cast<const uint4*>(src), words,
                                                             sink);
  return cudaGetLastError();
}

cudaError_t launch_write(void* dst, size_t bytes, int sm_count, cudaStream_t s) {
  const size_t words = bytes / sizeof(uint4);
  write_kernel<<<grid_for(words, sm_count), kThreads, 0, s>>>(static_cast<uint4*>(dst), words);
  return cudaGetLastError();
}

// ---------------------------------------------------------------------------------------------
// Resources

// Per-GPU buffers and the one stream (with its event pair) that issues that GPU's operations.
struct Gpu {
  int index = -1;
  int sm_count = 0;
  void* buf_a = nullptr;  // source of copies and reads
  void* buf_b = nullptr;  // destination of copies and writes
  unsigned* sink = nullptr;
  void* mapped_host = nullptr;  // device pointer to the shared mapped pinned host buffer
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr;
  cudaEvent_t stop = nullptr;
};

// Owns every allocation; the destructor releases them (ignoring errors, since it also runs after
// a failed call).
class Resources {
 public:
  Resources(const std::vector<int>& gpus, size_t max_bytes) {
    CUDA_CHECK(cudaHostAlloc(&pinned_, max_bytes, cudaHostAllocPortable | cudaHostAllocMapped));
    std::memset(pinned_, 0x5a, max_bytes);
    pageable_ = std::aligned_alloc(4096, (max_bytes + 4095) / 4096 * 4096);
    if (pageable_ == nullptr) throw std::runtime_error("cannot allocate pageable host buffer");
    std::memset(pageable_, 0x5a, max_bytes);  // touch every page before timing
    for (int index : gpus) {
      gpus_.push_back(Gpu{});
      Gpu& g = gpus_.back();
      g.index = index;
      CUDA_CHECK(cudaSetDevice(index));
      CUDA_CHECK(cudaDeviceGetAttribute(&g.sm_count, cudaDevAttrMultiProcessorCount, index));
      CUDA_CHECK(cudaMalloc(&g.buf_a, max_bytes));
      CUDA_CHECK(cudaMalloc(&g.buf_b, max_bytes));
      CUDA_CHECK(cudaMemset(g.buf_a, 0x5a, max_bytes));
      CUDA_CHECK(cudaMemset(g.buf_b, 0, max_bytes));
      CUDA_CHECK(cudaMalloc(&g.sink, sizeof(unsigned)));
      CUDA_CHECK(cudaHostGetDevicePointer(&g.mapped_host, pinned_, 0));
      CUDA_CHECK(cudaStreamCreateWithFlags(&g.stream, cudaStreamNonBlocking));
      CUDA_CHECK(cudaEventCreate(&g.start));
      CUDA_CHECK(cudaEventCreate(&g.stop));
      CUDA_CHECK(cudaDeviceSynchronize());
    }
  }
  ~Resources() {
    for (Gpu& g : gpus_) {
      cudaSetDevice(g.index);
      cudaDeviceSynchronize();
      if (g.start) cudaEventDestroy(g.start);
      if (g.stop) cudaEventDestroy(g.stop);
      if (g.stream) cudaStreamDestroy(g.stream);
      cudaFree(g.buf_a);
      cudaFree(g.buf_b);
      cudaFree(g.sink);
    }
    if (pinned_) cudaFreeHost(pinned_);
    std::free(pageable_);
  }
  Resources(const Resources&) = delete;
  Resources& operator=(const Resources&) = delete;

  Gpu& gpu(int index) {
    for (Gpu& g : gpus_) {
      if (g.index == index) return g;
    }
    throw std::runtime_error("GPU " + std::to_string(index) + " was not set up");
  }
  void* pinned() const { return pinned_; }
  void* pageable() const { return pageable_; }

 private:
  std::vector<Gpu> gpus_;
  void* pinned_ = nullptr;
  void* pageable_ = nullptr;
};

// Enables or disables peer access between a and b in both directions; already being in the
// wanted state is fine.
void set_peer_access(int a, int b, bool on) {
  const int pairs[2][2] = {{a, b}, {b, a}};
  for (const auto& p : pairs) {
    CUDA_CHECK(cudaSetDevice(p[0]));
    const cudaError_t e =
        on ? cudaDeviceEnablePeerAccess(p[1], 0) : cudaDeviceDisablePeerAccess(p[1]);
    if (e == cudaErrorPeerAccessAlreadyEnabled || e == cudaErrorPeerAccessNotEnabled) {
      cudaGetLastError();  // clear the non-sticky error
      continue;
    }
    CUDA_CHECK(e);
  }
}

bool can_access_peer(int a, int b) {
  int ab = 0;
  int ba = 0;
  CUDA_CHECK(cudaDeviceCanAccessPeer(&ab, a, b));
  CUDA_CHECK(cudaDeviceCanAccessPeer(&ba, b, a));
  return ab != 0 && ba != 0;
}

// ---------------------------------------------------------------------------------------------
// One operation of a mode: who issues it, what moves where, and how to enqueue it.

struct Op {
  int exec_gpu;  // GPU whose stream issues (and whose events time) the operation
  int src;       // data source: GPU index, or -1 for host memory (cpu0)
  int dst;       // data destination, same convention
  const char* src_mem;
  const char* dst_mem;
  std::function<int(cudaStream_t, size_t)> issue;  // enqueues n bytes; returns the call's line
};

Op make_op(const Mode& m, Resources& res, int a, int b) {
  Gpu& ga = res.gpu(a);
  void* pinned = res.pinned();
  void* pageable = res.pageable();
  switch (m.id) {
    case ModeId::kH2dPinned:
      return {a, -1, a, "pinned", "device", [=](cudaStream_t s, size_t n) {
                return TRACED_CALL(cudaMemcpyAsync(ga.buf_b, pinned, n, cudaMemcpyHostToDevice, s));
              }};
    case ModeId::kH2dPageable:
      return {
          a, -1, a, "pageable", "device", [=](cudaStream_t s, size_t n) {
            return TRACED_CALL(cudaMemcpyAsync(ga.buf_b, pageable, n, cudaMemcpyHostToDevice, s));
          }};
    case ModeId::kD2hPinned:
      return {a, a, -1, "device", "pinned", [=](cudaStream_t s, size_t n) {
                return TRACED_CALL(cudaMemcpyAsync(pinned, ga.buf_a, n, cudaMemcpyDeviceToHost, s));
              }};
    case ModeId::kD2hPageable:
      return {
          a, a, -1, "device", "pageable", [=](cudaStream_t s, size_t n) {
            return TRACED_CALL(cudaMemcpyAsync(pageable, ga.buf_a, n, cudaMemcpyDeviceToHost, s));
          }};
    case ModeId::kD2d:
      return {
          a, a, a, "device", "device", [=](cudaStream_t s, size_t n) {
            return TRACED_CALL(cudaMemcpyAsync(ga.buf_b, ga.buf_a, n, cudaMemcpyDeviceToDevice, s));
          }};
    case ModeId::kZerocopyRead:
      return {a, -1, a, "pinned", "device", [=](cudaStream_t s, size_t n) {
                return TRACED_CALL(launch_read(ga.mapped_host, n, ga.sink, ga.sm_count, s));
              }};
    case ModeId::kZerocopyWrite:
      return {a, a, -1, "device", "pinned", [=](cudaStream_t s, size_t n) {
                return TRACED_CALL(launch_write(ga.mapped_host, n, ga.sm_count, s));
              }};
    case ModeId::kP2pPeer:
    case ModeId::kP2pNopeer: {
      Gpu& gb = res.gpu(b);
      return {a, a, b, "device", "device", [=](cudaStream_t s, size_t n) {
                return TRACED_CALL(cudaMemcpyPeerAsync(gb.buf_b, b, ga.buf_a, a, n, s));
              }};
    }
    case ModeId::kSmPeerRead: {
      Gpu& gb = res.gpu(b);
      return {a, b, a, "device", "device", [=](cudaStream_t s, size_t n) {
                return TRACED_CALL(launch_read(gb.buf_a, n, ga.sink, ga.sm_count, s));
              }};
    }
    case ModeId::kSmPeerWrite: {
      Gpu& gb = res.gpu(b);
      return {a, a, b, "device", "device", [=](cudaStream_t s, size_t n) {
                return TRACED_CALL(launch_write(gb.buf_b, n, ga.sm_count, s));
              }};
    }
  }
  throw std::logic_error("unknown mode");
}

// ---------------------------------------------------------------------------------------------
// Statistics and output

std::string endpoint(int gpu) {
  return gpu < 0 ? "cpu0" : "gpu" + std::to_string(gpu);
}

// Linear interpolation between closest ranks (numpy's default); `v` must be sorted.
double percentile(const std::vector<double>& v, double p) {
  const double pos = p * static_cast<double>(v.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (v[hi] - v[lo]) * (pos - static_cast<double>(lo));
}

FILE* open_output(const std::string& path, const char* header) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  std::fprintf(f, "%s\n", header);
  return f;
}

struct Outputs {
  FILE* trace;
  FILE* summary;
  FILE* reps;
};

using Clock = std::chrono::steady_clock;

long long ns_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(b - a).count();
}

struct Options {
  std::vector<const Mode*> modes;
  std::vector<int> gpus;
  size_t max_bytes = kGiB;
  int reps = 0;  // 0: default_reps()
  int warmup = 3;
  std::string trace = "copybench_trace.csv";
  std::string summary = "copybench_summary.csv";
  std::string reps_out = "copybench_reps.csv";
};

// Sweeps one (mode, a, b) over its sizes and writes every output row. Returns the median event
// bandwidth of the largest size, for the progress line.
double run_task(const Mode& m, int a, int b, Resources& res, const Options& opt, Outputs& out,
                Clock::time_point t_origin) {
  if (m.pair) {
    const bool want_peer = m.id != ModeId::kP2pNopeer;
    if (want_peer && !can_access_peer(a, b)) {
      throw std::runtime_error("GPUs " + std::to_string(a) + " and " + std::to_string(b) +
                               " cannot access each other as peers");
    }
    set_peer_access(a, b, want_peer);
  }
  const Op op = make_op(m, res, a, b);
  Gpu& g = res.gpu(op.exec_gpu);
  CUDA_CHECK(cudaSetDevice(op.exec_gpu));
  const std::string src = endpoint(op.src);
  const std::string dst = endpoint(op.dst);
  const char* kind = m.kernel ? "access" : "copy";
  // The reader takes an `access` without issuer as a load by dst; stores need it spelled out.
  const std::string issuer = m.kernel ? endpoint(op.exec_gpu) : "";
  double last_gbps = 0.0;

  for (size_t n = m.kernel ? kKernelMinBytes : 1; n <= opt.max_bytes; n *= 2) {
    for (int r = 0; r < opt.warmup; ++r) {
      op.issue(g.stream, n);
      CUDA_CHECK(cudaStreamSynchronize(g.stream));
    }
    const int reps = opt.reps > 0 ? opt.reps : default_reps(m, n);
    std::vector<double> event_ns;
    std::vector<double> cpu_ns;
    for (int r = 0; r < reps; ++r) {
      const Clock::time_point t0 = Clock::now();
      CUDA_CHECK(cudaEventRecord(g.start, g.stream));
      const int line = op.issue(g.stream, n);
      CUDA_CHECK(cudaEventRecord(g.stop, g.stream));
      CUDA_CHECK(cudaEventSynchronize(g.stop));
      const Clock::time_point t1 = Clock::now();
      float ms = 0.0f;
      CUDA_CHECK(cudaEventElapsedTime(&ms, g.start, g.stop));
      const long long dur = std::llround(static_cast<double>(ms) * 1e6);
      const long long start = ns_between(t_origin, t0);
      const long long cpu = ns_between(t0, t1);
      event_ns.push_back(static_cast<double>(dur));
      cpu_ns.push_back(static_cast<double>(cpu));
      std::fprintf(out.trace, "%s,%s,%s,%zu,%s,%s,%lld,%lld,%d,%s,copybench.cu:%d,%s\n", kind,
                   src.c_str(), dst.c_str(), n, op.src_mem, op.dst_mem, start, dur, op.exec_gpu,
                   m.name, line, issuer.c_str());
      std::fprintf(out.reps, "%s,%s,%s,%zu,%d,%lld,%lld,%lld\n", m.name, src.c_str(), dst.c_str(),
                   n, r, start, dur, cpu);
    }
    std::sort(event_ns.begin(), event_ns.end());
    std::sort(cpu_ns.begin(), cpu_ns.end());
    const double median = percentile(event_ns, 0.5);
    last_gbps = median > 0 ? static_cast<double>(n) / median : 0.0;  // bytes/ns == GB/s
    std::fprintf(out.summary, "%s,%s,%s,%zu,%d,%.0f,%.0f,%.0f,%.0f,%.6g,%.0f\n", m.name,
                 src.c_str(), dst.c_str(), n, reps, median, event_ns.front(),
                 percentile(event_ns, 0.1), percentile(event_ns, 0.9), last_gbps,
                 percentile(cpu_ns, 0.5));
    // Flush per size so that a run stopped by a time limit keeps what it measured.
    std::fflush(out.trace);
    std::fflush(out.summary);
    std::fflush(out.reps);
  }
  return last_gbps;
}

// ---------------------------------------------------------------------------------------------
// Command line

[[noreturn]] void usage(const char* msg) {
  std::fprintf(stderr,
               "copybench: %s\n"
               "usage: copybench [--modes m1,m2,...] [--gpus 0,1,...] [--max-bytes N[K|M|G]]\n"
               "                 [--reps N] [--warmup N] [--trace PATH] [--summary PATH]\n"
               "                 [--reps-out PATH]\n"
               "modes:",
               msg);
  for (const Mode& m : kModes) std::fprintf(stderr, " %s", m.name);
  std::fprintf(stderr, "\n");
  std::exit(2);
}

size_t parse_bytes(const std::string& s) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s.c_str(), &end, 10);
  const std::string suffix(end);
  if (end == s.c_str()) usage(("not a size: " + s).c_str());
  if (suffix.empty()) return v;
  if (suffix == "K") return v << 10;
  if (suffix == "M") return v << 20;
  if (suffix == "G") return v << 30;
  usage(("not a size: " + s).c_str());
}

int parse_int(const std::string& s) {
  char* end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (end == s.c_str() || *end != '\0' || v < 0)
    usage(("not a non-negative integer: " + s).c_str());
  return static_cast<int>(v);
}

Options parse_options(int argc, char** argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) usage(("missing value for " + flag).c_str());
    const std::string value = argv[++i];
    if (flag == "--modes") {
      for (const std::string& name : split(value)) {
        const Mode* found = nullptr;
        for (const Mode& m : kModes) {
          if (name == m.name) found = &m;
        }
        if (found == nullptr) usage(("unknown mode: " + name).c_str());
        opt.modes.push_back(found);
      }
    } else if (flag == "--gpus") {
      for (const std::string& g : split(value)) opt.gpus.push_back(parse_int(g));
    } else if (flag == "--max-bytes") {
      opt.max_bytes = parse_bytes(value);
    } else if (flag == "--reps") {
      opt.reps = parse_int(value);
    } else if (flag == "--warmup") {
      opt.warmup = parse_int(value);
    } else if (flag == "--trace") {
      opt.trace = value;
    } else if (flag == "--summary") {
      opt.summary = value;
    } else if (flag == "--reps-out") {
      opt.reps_out = value;
    } else {
      usage(("unknown flag: " + flag).c_str());
    }
  }
  if (opt.modes.empty()) {
    for (const Mode& m : kModes) opt.modes.push_back(&m);
  }
  if (opt.max_bytes == 0) usage("--max-bytes must be positive");
  return opt;
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress lines appear at once, also in a log
  const Clock::time_point t_origin = Clock::now();
  Options opt = parse_options(argc, argv);

  int count = 0;
  try {
    CUDA_CHECK(cudaGetDeviceCount(&count));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "copybench: %s\n", e.what());
    return 1;
  }
  if (opt.gpus.empty()) {
    for (int i = 0; i < count; ++i) opt.gpus.push_back(i);
  }
  for (int g : opt.gpus) {
    if (g >= count) usage(("no such GPU: " + std::to_string(g)).c_str());
    cudaDeviceProp p{};
    cudaGetDeviceProperties(&p, g);
    std::printf("copybench: gpu%d %s, %d SMs, %.1f GiB, PCI %04x:%02x:%02x\n", g, p.name,
                p.multiProcessorCount, static_cast<double>(p.totalGlobalMem) / kGiB, p.pciDomainID,
                p.pciBusID, p.pciDeviceID);
  }

  int failures = 0;
  try {
    Outputs out{open_output(opt.trace,
                            "kind,src,dst,bytes,src_mem,dst_mem,start_ns,duration_ns,stream,"
                            "object,line,issuer"),
                open_output(opt.summary,
                            "mode,src,dst,bytes,reps,median_ns,min_ns,p10_ns,p90_ns,"
                            "median_gbps,cpu_median_ns"),
                open_output(opt.reps_out, "mode,src,dst,bytes,rep,start_ns,event_ns,cpu_ns")};
    Resources res(opt.gpus, opt.max_bytes);
    for (const Mode* m : opt.modes) {
      for (int a : opt.gpus) {
        for (int b : opt.gpus) {
          if (m->pair == (a == b)) continue;  // pair modes: a != b; the others: a == b
          const Clock::time_point t0 = Clock::now();
          const std::string where = m->pair ? endpoint(a) + "->" + endpoint(b) : endpoint(a);
          try {
            const double gbps = run_task(*m, a, b, res, opt, out, t_origin);
            std::printf("copybench: %-15s %-11s done in %5.1f s, %.2f GB/s at the largest size\n",
                        m->name, where.c_str(),
                        static_cast<double>(ns_between(t0, Clock::now())) * 1e-9, gbps);
          } catch (const std::exception& e) {
            ++failures;
            std::fprintf(stderr, "copybench: FAILED %s %s: %s\n", m->name, where.c_str(), e.what());
            cudaGetLastError();  // clear a non-sticky error so that the next mode can run
          }
        }
      }
    }
    std::fclose(out.trace);
    std::fclose(out.summary);
    std::fclose(out.reps);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "copybench: %s\n", e.what());
    return 1;
  }
  return failures == 0 ? 0 : 1;
}
