// Host memory rates that decide the host-side share of a CPU<->GPU copy, measured on the calling
// thread with no GPU: the single-thread memcpy rate from DRAM (the CUDA driver stages pageable
// copies through its pinned buffers with one such copy), the same from a cache-warm buffer, and
// the rate of copying into freshly mapped memory, where every page faults and is zeroed by the
// kernel during the copy (a pageable D2H into a new tensor), with the fault cost on its own.
//
// Standard library and POSIX only (mmap, munmap, sysconf), so it builds standalone:
//   g++ -O2 -std=c++20 -I<repo root> tools/record/hostrates_main.cpp hostprobe/host_rates.cpp
//
// Units: GB/s = 1e9 bytes copied (or mapped) per second; bytes are the bytes one rep copies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace linkcast::hostprobe {

/// What to measure and how long to spend. `quick()` runs in about 1-2 s, `thorough()` in about
/// 5-15 s on a server (most of it page faults: a VM that faults at ~1.5 GB/s takes the longest);
/// both cap every buffer at `max_bytes`.
struct ProbeOptions {
  /// DRAM copy: source + destination; raised to 3x the last-level cache when that is larger,
  /// so that neither buffer stays cached between reps (then capped by max_bytes).
  std::size_t dram_working_set_bytes = std::size_t{1} << 30;
  int dram_reps = 7;
  /// Warm copy: sizes that should fit in the last-level cache; each copied warm_reps times
  /// after one untimed warm-up copy.
  std::vector<std::size_t> warm_sizes_bytes = {std::size_t{1} << 20, std::size_t{4} << 20,
                                               std::size_t{16} << 20};
  int warm_reps = 50;
  /// First touch and fault only: each size into a fresh anonymous mapping per rep.
  std::vector<std::size_t> first_touch_sizes_bytes = {
      std::size_t{1} << 20,   std::size_t{4} << 20,   std::size_t{16} << 20,
      std::size_t{64} << 20,  std::size_t{256} << 20, std::size_t{1} << 30};
  int first_touch_reps = 5;
  /// Reps for first-touch sizes of 256 MiB and more (they take the most time).
  int first_touch_big_reps = 3;
  /// Staging-shaped copies, as the CUDA driver stages a pageable copy through a small pinned
  /// buffer: `stage_in` copies a cold (pre-touched, larger than the cache) source chunk by chunk
  /// into one reused chunk-sized destination (a host-to-device copy's CPU side); `stage_out`
  /// copies one reused chunk into consecutive chunks of a pre-touched destination (device to
  /// host into a buffer used before), `stage_out_fresh` into a fresh mapping (device to host
  /// into a new tensor). 0 bytes: skipped.
  std::size_t stage_bytes = std::size_t{1} << 30;
  std::size_t stage_chunk_bytes = std::size_t{2} << 20;
  int stage_reps = 3;
  /// Cap on any one buffer; larger sizes are skipped.
  std::size_t max_bytes = std::size_t{1} << 30;
  /// Told before each measurement what it is about to measure ("first touch, 256 MiB"); none
  /// when empty.
  std::function<void(const std::string&)> progress;

  static ProbeOptions quick();
  static ProbeOptions thorough() { return ProbeOptions{}; }
};

/// One measurement: `reps` timed repetitions of moving `bytes`.
struct RateStat {
  std::string measure;  ///< dram_copy, warm_copy, first_touch or fault_only
  std::size_t bytes = 0;
  int reps = 0;
  double median_gbps = 0.0;
  double min_gbps = 0.0;
  double max_gbps = 0.0;
  double median_ns = 0.0;
};

struct HostRates {
  // Machine facts.
  std::size_t page_size_bytes = 0;  ///< sysconf(_SC_PAGESIZE)
  std::size_t llc_bytes = 0;        ///< cpu0's last-level cache (sysfs, else sysconf); 0 unknown
  std::string thp_mode;             ///< bracketed word of transparent_hugepage/enabled; "" unknown
  bool thp_enabled = false;         ///< thp_mode is "always" (fresh anonymous memory may be huge)

  // Every measurement, as written to the CSV.
  RateStat dram_copy;
  std::vector<RateStat> warm_copy;    ///< one per warm size
  std::vector<RateStat> first_touch;  ///< one per size
  std::vector<RateStat> fault_only;   ///< one per size
  RateStat stage_in;                  ///< cold source -> one reused chunk
  RateStat stage_out;                 ///< one reused chunk -> pre-touched destination
  RateStat stage_out_fresh;           ///< one reused chunk -> fresh destination

  // Headline figures (medians).
  double dram_copy_gbps = 0.0;       ///< single-thread memcpy, DRAM to DRAM
  double warm_copy_best_gbps = 0.0;  ///< best warm-copy median over the warm sizes
  double first_touch_gbps = 0.0;     ///< copy into fresh memory, largest size measured
  double fault_only_gbps = 0.0;      ///< bytes of fresh mapping faulted in per second, largest size
  double fault_ns_per_page = 0.0;    ///< page_size_bytes / fault_only_gbps, in ns
  double stage_in_gbps = 0.0;        ///< stage_in median
  double stage_out_gbps = 0.0;       ///< stage_out median
  double stage_out_fresh_gbps = 0.0; ///< stage_out_fresh median
};

/// Runs every measurement of `options` on the calling thread. Throws std::runtime_error when a
/// buffer cannot be allocated or mapped.
HostRates measure_host_rates(const ProbeOptions& options);

/// CSV: header `measure,bytes,reps,median_gbps,min_gbps,max_gbps`, then one row per measurement
/// (dram_copy, warm_copy per size, first_touch per size, fault_only per size, stage_in,
/// stage_out, stage_out_fresh).
void write_host_rates_csv(std::ostream& out, const HostRates& rates);

/// CSV `key,value`: page_size_bytes, llc_bytes, thp_mode, and the headline figures.
void write_host_info_csv(std::ostream& out, const HostRates& rates);

/// The node-file values these rates measure, GB/s (0 where not measured): a cpu's memory
/// `copy_bandwidth_gbps` (DRAM copy), `warm_copy_gbps` (the best warm copy of at least
/// kWarmNodeMinBytes: a buffer in the last-level cache, not the core's own caches) and
/// `first_touch_gbps` (the largest first-touch size).
struct NodeValues {
  double copy_bandwidth_gbps = 0;
  double warm_copy_gbps = 0;
  double first_touch_gbps = 0;
};
inline constexpr std::size_t kWarmNodeMinBytes = std::size_t{4} << 20;
NodeValues node_values(const HostRates& rates);

/// The node values as YAML lines for a cpu's `memory:` block, each with a comment naming what
/// measured it; `source` names the run (e.g. "`linkcast hostprobe` on host x").
void write_node_yaml(std::ostream& out, const HostRates& rates, const std::string& source);

}  // namespace linkcast::hostprobe
