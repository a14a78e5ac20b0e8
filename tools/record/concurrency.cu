// concurrency: ground-truth timings of copies that run at the same time, for linkcast's
// bandwidth-sharing simulation.
//
// A pattern is a set of copies released together. Each copy has its own stream (on the GPU that
// issues it: the source GPU for peer copies and D2H, the destination GPU for H2D) and its own
// buffers (pinned host buffers for H2D/D2H). Release: a gate kernel on gpu0 spins on a host flag
// while every copy is enqueued behind an event recorded after the gate; setting the flag starts
// them all at once, so enqueue order does not skew the start. Measured per instance:
//   - each copy's duration, from an event pair on its own stream;
//   - the makespan, from the release event to an event that waits for every copy's end event
//     (it includes the cross-GPU event signalling, a few microseconds).
// Every pattern is also run with each of its copies alone (pattern name `<pattern>.alone<k>`,
// k = the copy's index in the pattern), for comparison.
//
// Patterns (n GPUs; cpu0 = host memory):
//   fan_out           gpu0 -> gpu j, every j != 0                    (n >= 2)
//   fan_out_host      fan_out plus gpu0 -> cpu0                       (n >= 2)
//   fan_in            gpu j -> gpu0, every j != 0                    (n >= 2)
//   bidir_pairs       gpu i -> gpu j and gpu j -> gpu i, every i < j (n >= 2)
//   ring              gpu i -> gpu (i+1) % n, every i                (n >= 2)
//   all_h2d           cpu0 -> every GPU
//   all_d2h           every GPU -> cpu0
//   h2d_d2h_same_gpu  cpu0 -> gpu0 and gpu0 -> cpu0
//   all_h2d_d2h       cpu0 -> every GPU and every GPU -> cpu0       (n >= 2)
//   d2d_pair          two gpu0 -> gpu0 copies (D2D, distinct buffers)
//   d2d_quad          four gpu0 -> gpu0 copies
//   d2d_h2d_same_gpu  gpu0 -> gpu0 and cpu0 -> gpu0
//   d2d_d2h_same_gpu  gpu0 -> gpu0 and gpu0 -> cpu0
// Sizes per copy: 64 MiB and 256 MiB, plus 1 GiB for ring and bidir_pairs.
//
// Outputs:
//   --trace    linkcast CSV trace, one row per copy per instance; `object` is
//              <pattern>/<size>/rep<r> (e.g. fan_out/256MiB/rep0), start_ns 0 (released
//              together), stream a distinct id per copy, line empty;
//   --summary  pattern,bytes_per_op,n_ops,rep,makespan_ns,op_durations_ns (';'-joined).
//
// Build: nvcc -O2 -arch=sm_90 -o concurrency concurrency.cu

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "record_common.cuh"

namespace {

using record::split;


constexpr int kHost = -1;  // endpoint index of host memory (cpu0)
constexpr size_t kMiB = size_t{1} << 20;
constexpr size_t kGiB = size_t{1} << 30;
constexpr unsigned long long kGateTimeoutNs = 5'000'000'000ull;

std::string endpoint(int e) {
  return e == kHost ? "cpu0" : "gpu" + std::to_string(e);
}

std::string size_label(size_t bytes) {
  if (bytes % kGiB == 0) return std::to_string(bytes / kGiB) + "GiB";
  return std::to_string(bytes / kMiB) + "MiB";
}

// ---------------------------------------------------------------------------------------------
// Patterns

struct Copy {
  int src;
  int dst;
};

struct Pattern {
  std::string name;
  std::vector<Copy> copies;
  std::vector<size_t> sizes;
};

std::vector<Pattern> make_patterns(int n, const std::vector<size_t>& sizes,
                                   const std::vector<size_t>& big_sizes) {
  std::vector<size_t> with_big = sizes;
  with_big.insert(with_big.end(), big_sizes.begin(), big_sizes.end());
  std::vector<Pattern> p;
  if (n >= 2) {
    Pattern fan_out{"fan_out", {}, sizes};
    Pattern fan_in{"fan_in", {}, sizes};
    for (int j = 1; j < n; ++j) {
      fan_out.copies.push_back({0, j});
      fan_in.copies.push_back({j, 0});
    }
    Pattern fan_out_host{"fan_out_host", fan_out.copies, sizes};
    fan_out_host.copies.push_back({0, kHost});
    Pattern bidir{"bidir_pairs", {}, with_big};
    for (int i = 0; i < n; ++i) {
      for (int j = i + 1; j < n; ++j) {
        bidir.copies.push_back({i, j});
        bidir.copies.push_back({j, i});
      }
    }
    Pattern ring{"ring", {}, with_big};
    for (int i = 0; i < n; ++i) ring.copies.push_back({i, (i + 1) % n});
    p.insert(p.end(), {fan_out, fan_out_host, fan_in, bidir, ring});
  }
  Pattern all_h2d{"all_h2d", {}, sizes};
  Pattern all_d2h{"all_d2h", {}, sizes};
  for (int g = 0; g < n; ++g) {
    all_h2d.copies.push_back({kHost, g});
    all_d2h.copies.push_back({g, kHost});
  }
  p.insert(p.end(),
           {all_h2d, all_d2h, Pattern{"h2d_d2h_same_gpu", {{kHost, 0}, {0, kHost}}, sizes}});
  // Copies within GPU 0's memory (D2D: source and destination both there), beside each other and
  // beside a DMA copy to or from the same GPU: what a D2D copy shares with what.
  p.insert(p.end(), {Pattern{"d2d_pair", {{0, 0}, {0, 0}}, sizes},
                     Pattern{"d2d_quad", {{0, 0}, {0, 0}, {0, 0}, {0, 0}}, sizes},
                     Pattern{"d2d_h2d_same_gpu", {{0, 0}, {kHost, 0}}, sizes},
                     Pattern{"d2d_d2h_same_gpu", {{0, 0}, {0, kHost}}, sizes}});
  if (n >= 2) {
    Pattern both{"all_h2d_d2h", all_h2d.copies, sizes};
    both.copies.insert(both.copies.end(), all_d2h.copies.begin(), all_d2h.copies.end());
    p.push_back(both);
  }
  return p;
}

// ---------------------------------------------------------------------------------------------
// Release gate

// Spins until the host sets *flag (or the timeout passes, so that a failed host never leaves
// the GPU spinning).
__global__ void gate_kernel(const volatile int* flag, unsigned long long timeout_ns) {
  unsigned long long start = 0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  while (*flag == 0) {
    unsigned long long now = 0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    if (now - start > timeout_ns) break;
  }
}

// ---------------------------------------------------------------------------------------------
// One copy's resources for one size

struct CopyRes {
  Copy copy;
  int issuer;  // GPU whose stream issues the copy
  void* src = nullptr;
  void* dst = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr;
  cudaEvent_t end = nullptr;
};

void* alloc_on(int endpoint_index, size_t bytes) {
  void* p = nullptr;
  if (endpoint_index == kHost) {
    CUDA_CHECK(cudaHostAlloc(&p, bytes, cudaHostAllocPortable));
    std::memset(p, 0x5a, bytes);
  } else {
    CUDA_CHECK(cudaSetDevice(endpoint_index));
    CUDA_CHECK(cudaMalloc(&p, bytes));
    CUDA_CHECK(cudaMemset(p, 0x5a, bytes));
  }
  return p;
}

void free_on(int endpoint_index, void* p) {
  if (p == nullptr) return;
  if (endpoint_index == kHost) {
    cudaFreeHost(p);
  } else {
    cudaSetDevice(endpoint_index);
    cudaFree(p);
  }
}

// Buffers, streams and events for every copy of a pattern at one size; released on destruction
// (or when the constructor fails part-way).
class PatternRes {
 public:
  PatternRes(const std::vector<Copy>& copies, size_t bytes) {
    try {
      for (const Copy& c : copies) {
        copies_.push_back(CopyRes{c, c.src == kHost ? c.dst : c.src});
        CopyRes& r = copies_.back();
        r.src = alloc_on(c.src, bytes);
        r.dst = alloc_on(c.dst, bytes);
        CUDA_CHECK(cudaSetDevice(r.issuer));
        CUDA_CHECK(cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking));
        CUDA_CHECK(cudaEventCreate(&r.start));
        CUDA_CHECK(cudaEventCreate(&r.end));
      }
    } catch (...) {
      release();
      throw;
    }
  }
  ~PatternRes() { release(); }
  PatternRes(const PatternRes&) = delete;
  PatternRes& operator=(const PatternRes&) = delete;
  CopyRes& operator[](size_t i) { return copies_[i]; }

 private:
  void release() {
    for (CopyRes& r : copies_) {
      cudaSetDevice(r.issuer);
      if (r.stream) cudaStreamSynchronize(r.stream);
      if (r.start) cudaEventDestroy(r.start);
      if (r.end) cudaEventDestroy(r.end);
      if (r.stream) cudaStreamDestroy(r.stream);
      free_on(r.copy.src, r.src);
      free_on(r.copy.dst, r.dst);
    }
    copies_.clear();
  }
  std::vector<CopyRes> copies_;
};

// gpu0's control stream, the release flag and the release/completion events.
struct Control {
  cudaStream_t stream = nullptr;
  cudaEvent_t release = nullptr;
  cudaEvent_t done = nullptr;
  volatile int* flag_host = nullptr;       // release flag in mapped pinned host memory...
  const volatile int* flag_dev = nullptr;  // ...and its device address
};

struct Measurement {
  long long makespan_ns;
  std::vector<long long> op_ns;
};

long long elapsed_ns(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
  return std::llround(static_cast<double>(ms) * 1e6);
}

// Releases the selected copies of `res` together and measures them.
Measurement run_instance(Control& ctl, PatternRes& res, const std::vector<size_t>& which,
                         size_t bytes) {
  *ctl.flag_host = 0;
  CUDA_CHECK(cudaSetDevice(0));
  gate_kernel<<<1, 1, 0, ctl.stream>>>(ctl.flag_dev, kGateTimeoutNs);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventRecord(ctl.release, ctl.stream));
  for (size_t k : which) {
    CopyRes& r = res[k];
    CUDA_CHECK(cudaSetDevice(r.issuer));
    CUDA_CHECK(cudaStreamWaitEvent(r.stream, ctl.release, 0));
    CUDA_CHECK(cudaEventRecord(r.start, r.stream));
    if (r.copy.src != kHost && r.copy.dst != kHost) {
      CUDA_CHECK(cudaMemcpyPeerAsync(r.dst, r.copy.dst, r.src, r.copy.src, bytes, r.stream));
    } else {
      CUDA_CHECK(cudaMemcpyAsync(r.dst, r.src, bytes, cudaMemcpyDefault, r.stream));
    }
    CUDA_CHECK(cudaEventRecord(r.end, r.stream));
  }
  CUDA_CHECK(cudaSetDevice(0));
  for (size_t k : which) CUDA_CHECK(cudaStreamWaitEvent(ctl.stream, res[k].end, 0));
  CUDA_CHECK(cudaEventRecord(ctl.done, ctl.stream));
  std::atomic_thread_fence(std::memory_order_seq_cst);
  *ctl.flag_host = 1;
  CUDA_CHECK(cudaEventSynchronize(ctl.done));

  Measurement m{elapsed_ns(ctl.release, ctl.done), {}};
  for (size_t k : which) m.op_ns.push_back(elapsed_ns(res[k].start, res[k].end));
  return m;
}

void enable_all_peers(int n) {
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      int ok = 0;
      CUDA_CHECK(cudaDeviceCanAccessPeer(&ok, a, b));
      if (!ok) {
        std::printf("concurrency: gpu%d cannot access gpu%d as a peer; its copies are staged\n", a,
                    b);
        continue;
      }
      CUDA_CHECK(cudaSetDevice(a));
      const cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
      if (e == cudaErrorPeerAccessAlreadyEnabled) {
        cudaGetLastError();
      } else {
        CUDA_CHECK(e);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Output

FILE* open_output(const std::string& path, const char* header) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
  std::fprintf(f, "%s\n", header);
  return f;
}

const char* mem_kind(int e) {
  return e == kHost ? "pinned" : "device";
}

void write_instance(FILE* trace, FILE* summary, const std::string& pattern, PatternRes& res,
                    const std::vector<size_t>& which, size_t bytes, int rep, const Measurement& m) {
  const std::string object = pattern + "/" + size_label(bytes) + "/rep" + std::to_string(rep);
  std::string durations;
  for (size_t i = 0; i < which.size(); ++i) {
    const Copy& c = res[which[i]].copy;
    std::fprintf(trace, "copy,%s,%s,%zu,%s,%s,0,%lld,%zu,%s,\n", endpoint(c.src).c_str(),
                 endpoint(c.dst).c_str(), bytes, mem_kind(c.src), mem_kind(c.dst), m.op_ns[i],
                 which[i] + 1, object.c_str());
    durations += (i ? ";" : "") + std::to_string(m.op_ns[i]);
  }
  std::fprintf(summary, "%s,%zu,%zu,%d,%lld,%s\n", pattern.c_str(), bytes, which.size(), rep,
               m.makespan_ns, durations.c_str());
}

long long median(std::vector<long long> v) {
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
}

// Runs one warm-up and `reps` measured instances of the selected copies; returns the median
// makespan.
long long measure(Control& ctl, PatternRes& res, const std::vector<size_t>& which, size_t bytes,
                  int reps, const std::string& name, FILE* trace, FILE* summary) {
  run_instance(ctl, res, which, bytes);
  std::vector<long long> makespans;
  for (int rep = 0; rep < reps; ++rep) {
    const Measurement m = run_instance(ctl, res, which, bytes);
    write_instance(trace, summary, name, res, which, bytes, rep, m);
    makespans.push_back(m.makespan_ns);
  }
  std::fflush(trace);
  std::fflush(summary);
  return median(makespans);
}

// ---------------------------------------------------------------------------------------------
// Command line

struct Options {
  int gpus = 0;  // 0: every visible GPU
  int reps = 5;
  std::vector<size_t> sizes_mib = {64, 256};
  std::vector<size_t> big_sizes_mib = {1024};  // ring and bidir_pairs only
  std::vector<std::string> patterns;           // empty: all
  std::string trace = "concurrency_trace.csv";
  std::string summary = "concurrency_summary.csv";
};

[[noreturn]] void usage(const std::string& msg) {
  std::fprintf(stderr,
               "concurrency: %s\n"
               "usage: concurrency [--gpus N] [--reps N] [--sizes-mib 64,256]\n"
               "                   [--big-sizes-mib 1024] [--patterns p1,p2,...]\n"
               "                   [--trace PATH] [--summary PATH]\n",
               msg.c_str());
  std::exit(2);
}

long parse_long(const std::string& s) {
  char* end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (end == s.c_str() || *end != '\0' || v < 0) usage("not a non-negative integer: " + s);
  return v;
}

std::vector<size_t> parse_sizes(const std::string& s) {
  std::vector<size_t> v;
  for (const std::string& part : split(s)) v.push_back(static_cast<size_t>(parse_long(part)));
  return v;
}

Options parse_options(int argc, char** argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) usage("missing value for " + flag);
    const std::string value = argv[++i];
    if (flag == "--gpus") {
      opt.gpus = static_cast<int>(parse_long(value));
    } else if (flag == "--reps") {
      opt.reps = static_cast<int>(parse_long(value));
    } else if (flag == "--sizes-mib") {
      opt.sizes_mib = parse_sizes(value);
    } else if (flag == "--big-sizes-mib") {
      opt.big_sizes_mib = parse_sizes(value);
    } else if (flag == "--patterns") {
      opt.patterns = split(value);
    } else if (flag == "--trace") {
      opt.trace = value;
    } else if (flag == "--summary") {
      opt.summary = value;
    } else {
      usage("unknown flag: " + flag);
    }
  }
  if (opt.reps < 1) usage("--reps must be at least 1");
  return opt;
}

std::vector<size_t> mib_to_bytes(const std::vector<size_t>& mib) {
  std::vector<size_t> b;
  for (size_t m : mib) b.push_back(m * kMiB);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // progress lines appear at once, also in a log
  const Options opt = parse_options(argc, argv);
  int failures = 0;
  try {
    int count = 0;
    CUDA_CHECK(cudaGetDeviceCount(&count));
    const int n = opt.gpus > 0 ? std::min(opt.gpus, count) : count;
    if (n < 1) throw std::runtime_error("no GPU");
    enable_all_peers(n);

    FILE* trace = open_output(
        opt.trace, "kind,src,dst,bytes,src_mem,dst_mem,start_ns,duration_ns,stream,object,line");
    FILE* summary =
        open_output(opt.summary, "pattern,bytes_per_op,n_ops,rep,makespan_ns,op_durations_ns");

    Control ctl;
    CUDA_CHECK(cudaSetDevice(0));
    CUDA_CHECK(cudaStreamCreateWithFlags(&ctl.stream, cudaStreamNonBlocking));
    CUDA_CHECK(cudaEventCreate(&ctl.release));
    CUDA_CHECK(cudaEventCreate(&ctl.done));
    void* flag_host = nullptr;
    CUDA_CHECK(cudaHostAlloc(&flag_host, sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable));
    void* flag_dev = nullptr;
    CUDA_CHECK(cudaHostGetDevicePointer(&flag_dev, flag_host, 0));
    ctl.flag_host = static_cast<volatile int*>(flag_host);
    ctl.flag_dev = static_cast<const volatile int*>(flag_dev);

    for (const Pattern& p :
         make_patterns(n, mib_to_bytes(opt.sizes_mib), mib_to_bytes(opt.big_sizes_mib))) {
      if (!opt.patterns.empty() &&
          std::find(opt.patterns.begin(), opt.patterns.end(), p.name) == opt.patterns.end()) {
        continue;
      }
      for (size_t bytes : p.sizes) {
        try {
          PatternRes res(p.copies, bytes);
          std::vector<size_t> all(p.copies.size());
          for (size_t k = 0; k < all.size(); ++k) all[k] = k;
          const long long together =
              measure(ctl, res, all, bytes, opt.reps, p.name, trace, summary);
          long long alone_sum = 0;
          for (size_t k = 0; k < all.size(); ++k) {
            alone_sum += measure(ctl, res, {k}, bytes, opt.reps,
                                 p.name + ".alone" + std::to_string(k), trace, summary);
          }
          std::printf(
              "concurrency: %-16s %7s x %zu ops: makespan %8.1f us together, %8.1f us summed "
              "alone\n",
              p.name.c_str(), size_label(bytes).c_str(), all.size(),
              static_cast<double>(together) * 1e-3, static_cast<double>(alone_sum) * 1e-3);
        } catch (const std::exception& e) {
          ++failures;
          std::fprintf(stderr, "concurrency: FAILED %s %s: %s\n", p.name.c_str(),
                       size_label(bytes).c_str(), e.what());
          cudaGetLastError();  // clear a non-sticky error so that the next pattern can run
        }
      }
    }
    std::fclose(trace);
    std::fclose(summary);
    cudaFreeHost(flag_host);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "concurrency: %s\n", e.what());
    return 1;
  }
  return failures == 0 ? 0 : 1;
}
