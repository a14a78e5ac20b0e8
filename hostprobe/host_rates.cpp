#include "hostprobe/host_rates.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <optional>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace linkcast::hostprobe {

namespace {

constexpr unsigned char kFill = 0x5a;

// Sink for the bytes read back after each copy, so that no copy can be optimised away.
volatile unsigned char g_sink = 0;

// An anonymous private mapping, unmapped on destruction. Fresh mappings are untouched: their
// first write to each page faults and the kernel zeroes the page.
class Mapping {
 public:
  explicit Mapping(std::size_t bytes) : bytes_(bytes) {
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      throw std::runtime_error("hostprobe: mmap of " + std::to_string(bytes) +
                               " bytes failed: " + std::strerror(errno));
    }
    data_ = static_cast<unsigned char*>(p);
  }
  ~Mapping() {
    if (data_ != nullptr) ::munmap(data_, bytes_);
  }
  Mapping(Mapping&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), bytes_(other.bytes_) {}
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  Mapping& operator=(Mapping&&) = delete;

  unsigned char* data() const { return data_; }
  std::size_t size() const { return bytes_; }

 private:
  unsigned char* data_ = nullptr;
  std::size_t bytes_;
};

// A mapping with every page written (faulted in) before any timing.
Mapping touched(std::size_t bytes, unsigned char value) {
  Mapping m(bytes);
  std::memset(m.data(), value, bytes);
  return m;
}

double elapsed_ns(std::chrono::steady_clock::time_point t0,
                  std::chrono::steady_clock::time_point t1) {
  return std::chrono::duration<double, std::nano>(t1 - t0).count();
}

// Reads back the first and last byte of a copy and checks them, keeping the copy observable.
void check_copy(const unsigned char* dst, std::size_t bytes, unsigned char expected) {
  const volatile unsigned char* v = dst;
  const unsigned char first = v[0];
  const unsigned char last = v[bytes - 1];
  if (first != expected || last != expected) {
    throw std::runtime_error("hostprobe: copy of " + std::to_string(bytes) +
                             " bytes read back wrong");
  }
  g_sink = static_cast<unsigned char>(g_sink + first + last);
}

// Median, min and max of per-rep times for `bytes` per rep.
RateStat summarize(std::string measure, std::size_t bytes, std::vector<double> ns) {
  RateStat s;
  s.measure = std::move(measure);
  s.bytes = bytes;
  s.reps = static_cast<int>(ns.size());
  if (ns.empty()) return s;
  std::sort(ns.begin(), ns.end());
  const std::size_t h = ns.size() / 2;
  s.median_ns = ns.size() % 2 ? ns[h] : (ns[h - 1] + ns[h]) / 2.0;
  const auto gbps = [bytes](double t) { return t > 0.0 ? static_cast<double>(bytes) / t : 0.0; };
  s.median_gbps = gbps(s.median_ns);
  s.min_gbps = gbps(ns.back());
  s.max_gbps = gbps(ns.front());
  return s;
}

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (in) std::getline(in, line);
  return line;
}

// "32768K", "300M", "1G" or a plain number of bytes -> bytes; 0 when unreadable.
std::size_t parse_cache_size(const std::string& text) {
  std::size_t i = 0;
  std::size_t value = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    value = value * 10 + static_cast<std::size_t>(text[i] - '0');
    ++i;
  }
  if (i == 0) return 0;
  if (i < text.size()) {
    switch (text[i]) {
      case 'K': case 'k': return value << 10;
      case 'M': case 'm': return value << 20;
      case 'G': case 'g': return value << 30;
      default: break;
    }
  }
  return value;
}

// The last-level cache that cpu0 sees: the highest-level data or unified cache that sysfs
// lists for it, else sysconf's L3 size when the C library knows it (glibc may report the whole
// socket's L3 there, which a single thread of a chip with several L3 slices cannot use); 0 when
// neither says.
std::size_t last_level_cache_bytes() {
  std::size_t best = 0;
  int best_level = 0;
  for (int index = 0; index < 16; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    const std::string level_text = read_first_line(dir + "/level");
    if (level_text.empty()) continue;
    const std::string type = read_first_line(dir + "/type");
    if (type == "Instruction") continue;
    const int level = std::atoi(level_text.c_str());
    const std::size_t size = parse_cache_size(read_first_line(dir + "/size"));
    if (size > 0 && level >= best_level) {
      best_level = level;
      best = size;
    }
  }
  if (best > 0) return best;
#ifdef _SC_LEVEL3_CACHE_SIZE
  const long l3 = ::sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (l3 > 0) return static_cast<std::size_t>(l3);
#endif
  return 0;
}

// "always [madvise] never" -> "madvise"; "" when the file is missing.
std::string thp_mode() {
  const std::string line = read_first_line("/sys/kernel/mm/transparent_hugepage/enabled");
  const std::size_t open = line.find('[');
  const std::size_t close = line.find(']', open == std::string::npos ? 0 : open);
  if (open == std::string::npos || close == std::string::npos) return "";
  return line.substr(open + 1, close - open - 1);
}

RateStat measure_dram_copy(const ProbeOptions& o, std::size_t llc_bytes) {
  std::size_t working = std::max(o.dram_working_set_bytes, 3 * llc_bytes);
  working = std::min(working, 2 * o.max_bytes);
  const std::size_t bytes = working / 2;
  if (bytes == 0 || o.dram_reps < 1) return summarize("dram_copy", bytes, {});
  Mapping src = touched(bytes, kFill);
  Mapping dst = touched(bytes, 0);
  std::vector<double> ns;
  for (int rep = -1; rep < o.dram_reps; ++rep) {  // rep -1: untimed warm-up
    const auto t0 = std::chrono::steady_clock::now();
    std::memcpy(dst.data(), src.data(), bytes);
    const auto t1 = std::chrono::steady_clock::now();
    check_copy(dst.data(), bytes, kFill);
    if (rep >= 0) ns.push_back(elapsed_ns(t0, t1));
  }
  return summarize("dram_copy", bytes, std::move(ns));
}

RateStat measure_warm_copy(const ProbeOptions& o, std::size_t bytes) {
  Mapping src = touched(bytes, kFill);
  Mapping dst = touched(bytes, 0);
  std::vector<double> ns;
  for (int rep = -1; rep < o.warm_reps; ++rep) {  // rep -1 brings both buffers into the cache
    const auto t0 = std::chrono::steady_clock::now();
    std::memcpy(dst.data(), src.data(), bytes);
    const auto t1 = std::chrono::steady_clock::now();
    check_copy(dst.data(), bytes, kFill);
    if (rep >= 0) ns.push_back(elapsed_ns(t0, t1));
  }
  return summarize("warm_copy", bytes, std::move(ns));
}

int first_touch_reps_for(const ProbeOptions& o, std::size_t bytes) {
  return bytes >= (std::size_t{256} << 20) ? o.first_touch_big_reps : o.first_touch_reps;
}

// -1 (one untimed warm-up rep) below 256 MiB, 0 (none) from there on.
int warmup_reps_for(std::size_t bytes) { return bytes >= (std::size_t{256} << 20) ? 0 : -1; }

// memcpy from the pre-touched `src` into a fresh mapping, one new mapping per rep.
RateStat measure_first_touch(const ProbeOptions& o, const Mapping& src, std::size_t bytes) {
  std::vector<double> ns;
  const int reps = first_touch_reps_for(o, bytes);
  // One untimed copy of the same size first (below 256 MiB, where it is cheap), so that the
  // source's first `bytes` are as warm as the cache allows and every timed rep finds the kernel's
  // page allocator in the same state.
  for (int rep = warmup_reps_for(bytes); rep < reps; ++rep) {
    Mapping dst(bytes);
    const auto t0 = std::chrono::steady_clock::now();
    std::memcpy(dst.data(), src.data(), bytes);
    const auto t1 = std::chrono::steady_clock::now();
    check_copy(dst.data(), bytes, kFill);
    if (rep >= 0) ns.push_back(elapsed_ns(t0, t1));
  }  // each rep's mapping is unmapped here, outside the timing
  return summarize("first_touch", bytes, std::move(ns));
}

// One byte written per page of a fresh mapping: the page faults (and zeroing) alone.
RateStat measure_fault_only(const ProbeOptions& o, std::size_t page, std::size_t bytes) {
  std::vector<double> ns;
  const int reps = first_touch_reps_for(o, bytes);
  for (int rep = warmup_reps_for(bytes); rep < reps; ++rep) {
    Mapping dst(bytes);
    volatile unsigned char* p = dst.data();
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t off = 0; off < bytes; off += page) p[off] = kFill;
    const auto t1 = std::chrono::steady_clock::now();
    check_copy(dst.data(), 1, kFill);
    if (rep >= 0) ns.push_back(elapsed_ns(t0, t1));
  }
  return summarize("fault_only", bytes, std::move(ns));
}

// Chunk by chunk from a cold pre-touched source into one reused destination chunk.
RateStat measure_stage_in(const ProbeOptions& o, std::size_t total, std::size_t chunk) {
  Mapping src = touched(total, kFill);
  Mapping dst = touched(chunk, 0);
  Mapping flush = touched(total, 1);  // evicts the source from the cache between reps
  std::vector<double> ns;
  for (int rep = 0; rep < o.stage_reps; ++rep) {
    std::memset(flush.data(), static_cast<int>(rep), flush.size());
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t off = 0; off + chunk <= total; off += chunk) std::memcpy(dst.data(), src.data() + off, chunk);
    const auto t1 = std::chrono::steady_clock::now();
    check_copy(dst.data(), chunk, kFill);
    ns.push_back(elapsed_ns(t0, t1));
  }
  return summarize("stage_in", total, std::move(ns));
}

// One reused (cache-warm) source chunk into consecutive chunks of the destination: pre-touched
// and reused across reps, or (fresh) a new mapping per rep.
RateStat measure_stage_out(const ProbeOptions& o, std::size_t total, std::size_t chunk, bool fresh) {
  Mapping src = touched(chunk, kFill);
  std::vector<double> ns;
  std::optional<Mapping> reused;
  if (!fresh) reused.emplace(touched(total, 0));
  for (int rep = 0; rep < o.stage_reps; ++rep) {
    std::optional<Mapping> fresh_dst;
    if (fresh) fresh_dst.emplace(total);
    unsigned char* dst = fresh ? fresh_dst->data() : reused->data();
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t off = 0; off + chunk <= total; off += chunk) std::memcpy(dst + off, src.data(), chunk);
    const auto t1 = std::chrono::steady_clock::now();
    check_copy(dst, total - total % chunk, kFill);
    ns.push_back(elapsed_ns(t0, t1));
  }
  return summarize(fresh ? "stage_out_fresh" : "stage_out", total, std::move(ns));
}

void write_stat(std::ostream& out, const RateStat& s) {
  out << s.measure << ',' << s.bytes << ',' << s.reps << ',' << s.median_gbps << ','
      << s.min_gbps << ',' << s.max_gbps << '\n';
}

}  // namespace

ProbeOptions ProbeOptions::quick() {
  ProbeOptions o;
  o.dram_working_set_bytes = std::size_t{512} << 20;
  o.dram_reps = 3;
  o.warm_reps = 20;
  o.first_touch_sizes_bytes = {std::size_t{1} << 20, std::size_t{4} << 20, std::size_t{16} << 20,
                               std::size_t{64} << 20};
  o.first_touch_reps = 3;
  o.first_touch_big_reps = 2;
  o.stage_bytes = std::size_t{256} << 20;
  o.stage_reps = 2;
  return o;
}

HostRates measure_host_rates(const ProbeOptions& o) {
  HostRates r;
  const auto tell = [&o](const std::string& what) {
    if (o.progress) o.progress(what);
  };
  const auto mib = [](std::size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; };
  const long page = ::sysconf(_SC_PAGESIZE);
  r.page_size_bytes = page > 0 ? static_cast<std::size_t>(page) : 4096;
  r.llc_bytes = last_level_cache_bytes();
  r.thp_mode = thp_mode();
  r.thp_enabled = r.thp_mode == "always";

  tell("DRAM copy");
  r.dram_copy = measure_dram_copy(o, r.llc_bytes);
  r.dram_copy_gbps = r.dram_copy.median_gbps;

  for (std::size_t bytes : o.warm_sizes_bytes) {
    if (bytes == 0 || bytes > o.max_bytes || o.warm_reps < 1) continue;
    tell("warm copy, " + mib(bytes));
    r.warm_copy.push_back(measure_warm_copy(o, bytes));
    r.warm_copy_best_gbps = std::max(r.warm_copy_best_gbps, r.warm_copy.back().median_gbps);
  }

  std::vector<std::size_t> sizes;
  for (std::size_t bytes : o.first_touch_sizes_bytes) {
    if (bytes > 0 && bytes <= o.max_bytes) sizes.push_back(bytes);
  }
  std::sort(sizes.begin(), sizes.end());
  if (!sizes.empty() && o.first_touch_reps > 0) {
    const Mapping src = touched(sizes.back(), kFill);
    for (std::size_t bytes : sizes) {
      tell("first touch, " + mib(bytes));
      r.first_touch.push_back(measure_first_touch(o, src, bytes));
    }
  }
  if (!sizes.empty() && o.first_touch_reps > 0) {
    for (std::size_t bytes : sizes) {
      tell("faults alone, " + mib(bytes));
      r.fault_only.push_back(measure_fault_only(o, r.page_size_bytes, bytes));
    }
  }
  const std::size_t stage = std::min(o.stage_bytes, o.max_bytes);
  if (stage >= o.stage_chunk_bytes && o.stage_chunk_bytes > 0 && o.stage_reps > 0) {
    tell("staging-shaped copies, " + mib(stage));
    r.stage_in = measure_stage_in(o, stage, o.stage_chunk_bytes);
    r.stage_out = measure_stage_out(o, stage, o.stage_chunk_bytes, false);
    r.stage_out_fresh = measure_stage_out(o, stage, o.stage_chunk_bytes, true);
    r.stage_in_gbps = r.stage_in.median_gbps;
    r.stage_out_gbps = r.stage_out.median_gbps;
    r.stage_out_fresh_gbps = r.stage_out_fresh.median_gbps;
  }
  if (!r.first_touch.empty()) r.first_touch_gbps = r.first_touch.back().median_gbps;
  if (!r.fault_only.empty()) {
    r.fault_only_gbps = r.fault_only.back().median_gbps;
    if (r.fault_only_gbps > 0.0) {
      r.fault_ns_per_page = static_cast<double>(r.page_size_bytes) / r.fault_only_gbps;
    }
  }
  return r;
}

void write_host_rates_csv(std::ostream& out, const HostRates& r) {
  std::ostringstream text;
  text << std::setprecision(6);
  text << "measure,bytes,reps,median_gbps,min_gbps,max_gbps\n";
  if (r.dram_copy.reps > 0) write_stat(text, r.dram_copy);
  for (const RateStat& s : r.warm_copy) write_stat(text, s);
  for (const RateStat& s : r.first_touch) write_stat(text, s);
  for (const RateStat& s : r.fault_only) write_stat(text, s);
  for (const RateStat* s : {&r.stage_in, &r.stage_out, &r.stage_out_fresh})
    if (s->reps > 0) write_stat(text, *s);
  out << text.str();
}

void write_host_info_csv(std::ostream& out, const HostRates& r) {
  std::ostringstream text;
  text << std::setprecision(6);
  text << "key,value\n"
       << "page_size_bytes," << r.page_size_bytes << '\n'
       << "llc_bytes," << r.llc_bytes << '\n'
       << "thp_mode," << (r.thp_mode.empty() ? "unknown" : r.thp_mode) << '\n'
       << "thp_enabled," << (r.thp_enabled ? 1 : 0) << '\n'
       << "dram_copy_bytes," << r.dram_copy.bytes << '\n'
       << "dram_copy_gbps," << r.dram_copy_gbps << '\n'
       << "warm_copy_best_gbps," << r.warm_copy_best_gbps << '\n'
       << "first_touch_gbps," << r.first_touch_gbps << '\n'
       << "fault_only_gbps," << r.fault_only_gbps << '\n'
       << "fault_ns_per_page," << r.fault_ns_per_page << '\n'
       << "stage_in_gbps," << r.stage_in_gbps << '\n'
       << "stage_out_gbps," << r.stage_out_gbps << '\n'
       << "stage_out_fresh_gbps," << r.stage_out_fresh_gbps << '\n';
  out << text.str();
}

NodeValues node_values(const HostRates& r) {
  NodeValues v;
  v.copy_bandwidth_gbps = r.dram_copy_gbps;
  for (const RateStat& s : r.warm_copy)
    if (s.bytes >= kWarmNodeMinBytes) v.warm_copy_gbps = std::max(v.warm_copy_gbps, s.median_gbps);
  v.first_touch_gbps = r.first_touch_gbps;
  return v;
}

void write_node_yaml(std::ostream& out, const HostRates& r, const std::string& source) {
  const NodeValues v = node_values(r);
  std::ostringstream text;
  text << std::fixed << std::setprecision(2);
  const auto reps = [](const RateStat& s) { return std::to_string(s.reps); };
  const auto mib = [](std::size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; };
  text << "# for each cpu's memory: block (one thread, page " << r.page_size_bytes << " B, last-level cache "
       << (r.llc_bytes >> 20) << " MiB, transparent huge pages " << (r.thp_mode.empty() ? "unknown" : r.thp_mode)
       << "):\n";
  if (v.copy_bandwidth_gbps > 0)
    text << "      copy_bandwidth_gbps: " << v.copy_bandwidth_gbps << "  # " << source << ": memcpy of "
         << mib(r.dram_copy.bytes) << " between pre-touched buffers, median of " << reps(r.dram_copy) << "\n";
  const RateStat* warm = nullptr;
  for (const RateStat& s : r.warm_copy)
    if (s.bytes >= kWarmNodeMinBytes && (!warm || s.median_gbps > warm->median_gbps)) warm = &s;
  if (warm)
    text << "      warm_copy_gbps: " << v.warm_copy_gbps << "  # " << source << ": memcpy of a cache-resident "
         << mib(warm->bytes) << " buffer, median of " << reps(*warm) << "\n";
  if (!r.first_touch.empty())
    text << "      first_touch_gbps: " << v.first_touch_gbps << "  # " << source << ": memcpy into a fresh "
         << mib(r.first_touch.back().bytes) << " mapping (every page faults), median of " << reps(r.first_touch.back())
         << "\n";
  if (r.stage_in.reps > 0)
    text << "# staging-shaped copies of " << mib(r.stage_in.bytes) << " in chunks: cold source into a reused chunk " << r.stage_in_gbps << " GB/s, chunk into used pages "
         << r.stage_out_gbps << " GB/s, into fresh pages " << r.stage_out_fresh_gbps
         << " GB/s; a GPU driver's pageable copies are measured by `linkcast calibrate TRACE` (pageable_h2d_gbps, "
            "pageable_d2h_gbps)\n";
  out << text.str();
}

}  // namespace linkcast::hostprobe
