// `linkcast simulate` against the GPU recordings in tests/data/real (H100 x1, H200 x1, x2, x4;
// tools/record): concurrent-copy patterns and NCCL collectives, beside the baselines (no
// contention for copies, NCCL's own cost model for collectives). sim/validate.hpp says how each
// case is built; `linkcast_validate_real` prints the full table (docs/simulate.md).
// The bounds below are the errors measured when this test was written, rounded up: they keep
// the simulator from drifting away from the hardware.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <tuple>

#include "core/sanitizers.hpp"
#include "core/strings.hpp"
#include "model/models.hpp"
#include "sim/validate.hpp"
#include "test_util.hpp"
#include "topology/loader.hpp"
#include "topology/routing.hpp"

namespace linkcast::sim {
namespace {

std::string machine(const std::string& name) {
  return test::source_dir() + "/tests/data/real/" + name;
}

/// The NCCL rows of one kind of launch, every collective and size.
CallSelection launched(Launches launches) {
  CallSelection select;
  select.launches = launches;
  return select;
}

/// A recording's cases: its copies (where `select` is every NCCL row) and the NCCL rows `select`
/// takes. A test that checks some calls simulates only those: ctest runs each test in a process
/// of its own, so a folder's calls of up to 4 GiB would be simulated again for each test.
const std::vector<ValidationCase>& cases(const std::string& name,
                                         const CallSelection& select = {}) {
  static std::map<std::pair<std::string, CallSelection>, std::vector<ValidationCase>> cache;
  auto it = cache.find({name, select});
  if (it == cache.end()) {
    // A folder <gpu>-<count>gpu-<what> (h200-2gpu-nccl-graph, h200-1gpu-d2d, h200-4gpu-channels)
    // is a further recording of the machine kind <gpu>-<count>gpu, described by its testbed node.
    const std::size_t kind_end = name.find('-', name.find('-') + 1);
    const std::string node_name = name.substr(0, kind_end);
    const topology::Node node = topology::load_node(test::config("testbed-" + node_name + ".yaml"));
    std::vector<ValidationCase> all;
    // A selection of some collectives (by collective or size) takes no copies.
    if (select == CallSelection{}) all = validate_copies(machine(name), node);
    for (auto& c : validate_collectives(machine(name), node, select)) all.push_back(std::move(c));
    it = cache.emplace(std::pair{name, select}, std::move(all)).first;
  }
  return it->second;
}

const ValidationCase& find(const std::string& m, const std::string& group, const std::string& name,
                           std::uint64_t bytes) {
  for (const auto& c : cases(m))
    if (c.group == group && c.name == name && c.bytes == bytes) return c;
  throw std::runtime_error("no case " + group + " " + name);
}

#define REQUIRE_RECORDING(name)                                             \
  if (!std::filesystem::exists(machine(name) + "/concurrency_summary.csv")) \
  GTEST_SKIP() << "no recording at " << machine(name)

constexpr std::uint64_t kMiB = 1ull << 20;

TEST(SimReal, ContentionPatternsOnFourH200s) {
  REQUIRE_RECORDING("h200-4gpu");
  // Copies that contend, where per-copy projection (no contention) is off by 68-85%:
  //  - fan_in: three GPUs write into gpu0 at once and share its NVSwitch port (3x one copy);
  //  - fan_out: gpu0's peer copies run one at a time on its copy engine (3x one copy);
  //  - bidir_pairs: 12 copies between 4 GPUs, per-source serialisation plus shared ports (~6x).
  // Measured: the simulator within 11% (the transfer model's single copy is ~7% fast on H200).
  for (const char* pattern : {"fan_in", "fan_out", "bidir_pairs"}) {
    for (std::uint64_t bytes : {64 * kMiB, 256 * kMiB}) {
      const ValidationCase& c = find("h200-4gpu", "copies", pattern, bytes);
      EXPECT_LT(std::fabs(c.error()), 0.11) << pattern << " " << bytes;
      EXPECT_GT(std::fabs(c.baseline_error()), 0.6) << pattern << " " << bytes;
    }
  }
  // Four GPUs reading and writing host memory at once: the shared socket (DMA writes costing
  // twice) brings the error from -54% (no contention) to -16% at 256 MiB and -3% at 64 MiB.
  EXPECT_LT(std::fabs(find("h200-4gpu", "copies", "all_h2d_d2h", 256 * kMiB).error()), 0.17);
  EXPECT_LT(std::fabs(find("h200-4gpu", "copies", "all_h2d_d2h", 64 * kMiB).error()), 0.05);
}

TEST(SimReal, ConcurrentD2dCopiesShareTheGpusMemory) {
  REQUIRE_RECORDING("h200-1gpu-d2d");
  // One H200 (tests/data/real/h200-1gpu-d2d, recorded after D2D copies took the GPU's streaming
  // rate and scored once; -d2d2, run_d2d_concurrency.sh's own run an hour later): two or four D2D
  // copies released together take as long as one after the other (1 GiB pair: 1.015 ms against
  // 1.026 ms alone in turn), since all of them read and write the one memory; the simulator shares
  // its memory among them at the D2D copy's rate. Scored: +7.7% and +5.2% (pair, 256 MiB and
  // 1 GiB), +8.7% and +5.3% (four); the second run +9.3%, +5.9%, +9.3%, +6.0%; where "no
  // contention" says -45..-74%. The rest over the triad is the memcpy kernel running 3% above it.
  // A D2D copy beside an H2D or D2H copy of the same GPU leaves the DMA copy's pace (-4.5..+1.7%
  // from 64 MiB in both runs).
  for (const char* recording : {"h200-1gpu-d2d", "h200-1gpu-d2d2"}) {
    SCOPED_TRACE(recording);
    for (const char* pattern : {"d2d_pair", "d2d_quad"}) {
      for (std::uint64_t bytes : {256 * kMiB, 1024 * kMiB}) {
        const ValidationCase& c = find(recording, "copies", pattern, bytes);
        EXPECT_LT(std::fabs(c.error()), 0.10) << pattern << " " << bytes;
        EXPECT_GT(std::fabs(c.baseline_error()), 0.40) << pattern << " " << bytes;
      }
    }
    for (const char* pattern : {"d2d_h2d_same_gpu", "d2d_d2h_same_gpu"})
      for (std::uint64_t bytes : {64 * kMiB, 256 * kMiB, 1024 * kMiB})
        EXPECT_LT(std::fabs(find(recording, "copies", pattern, bytes).error()), 0.06)
            << pattern << " " << bytes;
  }
}

/// A run_l2_copy.sh recording's medians: (mode, bytes) -> ns (columns
/// mode,bytes,reps,median_ns,...).
std::map<std::pair<std::string, std::uint64_t>, double> l2_copy_medians(const std::string& folder) {
  std::ifstream in(machine(folder) + "/l2_copy_summary.csv");
  std::map<std::pair<std::string, std::uint64_t>, double> medians;
  std::string line;
  std::getline(in, line);  // the header
  while (std::getline(in, line)) {
    const auto f = split(line, ',');
    if (f.size() < 4) continue;
    medians[{std::string(f[0]), std::stoull(std::string(f[1]))}] = std::stod(std::string(f[3]));
  }
  return medians;
}

/// The least-squares slope of time over footprint (2n for a copy, n for a memset) through the
/// sizes whose footprint lies in [lo, hi] bytes, as GB/s: what run_l2_copy.sh's operations move
/// beyond their fixed cost. `time_ns` gives the time of a size.
template <class TimeNs>
double footprint_rate_gbps(const std::vector<std::uint64_t>& sizes, bool memset, double lo,
                           double hi, const TimeNs& time_ns) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0;
  for (const std::uint64_t bytes : sizes) {
    const double x = static_cast<double>(bytes) * (memset ? 1 : 2);
    if (x < lo || x > hi) continue;
    const double y = time_ns(bytes);
    sx += x, sy += y, sxx += x * x, sxy += x * y, n += 1;
  }
  return (n * sxx - sx * sx) / (n * sxy - sx * sy);
}

TEST(SimReal, DeviceCopiesRunAtTheStreamingRatePastTheL2AndBehindDirtyLines) {
  // One H100 and one H200 (tests/data/real/h100-1gpu-l2, h200-1gpu-l2; run_l2_copy.sh, recorded
  // after the nodes' stream_gbps were set from their triad kernels, and used for no value).
  // `default` prices a D2D copy at fixed + 2n / stream_gbps (2879 and 4095 GB/s) and a memset at
  // fixed + n / stream_gbps, the fixed cost being the same mode's 1-byte median.
  //  - Past the L2: copies and memsets of 256 MiB and 1 GiB, whose bytes are 4-40x the L2 cache,
  //    whatever state the cache was in. Measured: copies 4.4-5.9% over (the memcpy kernel runs
  //    3-5% above the triad), 7.6% and 8.9% for the 256 MiB copy after other data's clean lines
  //    (the last L2's worth of its writes lands in the cache); memsets only write and come out
  //    7.9-13.6% over at the triad's rate: bounded at 15%.
  //  - In the L2 behind dirty lines: after a kernel wrote 4x the L2 (what a training step's
  //    kernels leave), copies and memsets of a footprint of 2-24 MiB move their bytes beyond the
  //    fixed cost at 2882 and 3937 GB/s (copies) and 3213 and 4602 (memsets): the streaming rate,
  //    not the 4.1-7.1 TB/s such copies reach with a clean or warm cache (README, "Copies that fit
  //    in the L2 cache"). The model's rate over the same sizes: copies within 4% (2879 against
  //    2882, 4095 against 3937), memsets 10-11% under (write-only traffic, as past the L2).
  const std::vector<std::uint64_t> sizes = {1 * kMiB,  2 * kMiB,  4 * kMiB,  6 * kMiB,  8 * kMiB,
                                            10 * kMiB, 12 * kMiB, 14 * kMiB, 16 * kMiB, 20 * kMiB,
                                            24 * kMiB, 28 * kMiB, 32 * kMiB};
  for (const char* gpu : {"h100", "h200"}) {
    SCOPED_TRACE(gpu);
    const std::string folder = std::string(gpu) + "-1gpu-l2";
    if (!std::filesystem::exists(machine(folder) + "/l2_copy_summary.csv"))
      GTEST_SKIP() << "no recording " << folder;
    const auto medians = l2_copy_medians(folder);
    const topology::Node node =
        topology::load_node(test::config(std::string("testbed-") + gpu + "-1gpu.yaml"));
    const topology::Routes routes(node);
    const int g = node.gpus().front();
    const model::PathSpec path = topology::make_path_spec(node, routes, g, g);
    const auto priced_ns = [&](const std::string& mode, std::uint64_t bytes) {
      model::Transfer t;
      t.bytes = static_cast<double>(bytes);
      t.write_only = mode.starts_with("memset");
      t.fixed_ns = medians.at({mode, 1});
      return model::default_time_ns(path, t);
    };
    for (const std::string mode : {"copy_warm", "copy_cold", "copy_src_written", "copy_dirty",
                                   "memset_warm", "memset_cold", "memset_dirty"}) {
      const bool memset = mode.starts_with("memset");
      for (const std::uint64_t bytes : {256 * kMiB, 1024 * kMiB}) {
        const double error = priced_ns(mode, bytes) / medians.at({mode, bytes}) - 1;
        EXPECT_LT(std::fabs(error), memset ? 0.15 : 0.10) << mode << " " << bytes;
      }
      if (!mode.ends_with("dirty")) continue;
      const double lo = 2.0 * kMiB, hi = 24.0 * kMiB;
      const double measured = footprint_rate_gbps(sizes, memset, lo, hi, [&](std::uint64_t b) {
        return medians.at({mode, b});
      });
      const double model = footprint_rate_gbps(sizes, memset, lo, hi,
                                               [&](std::uint64_t b) { return priced_ns(mode, b); });
      EXPECT_LT(std::fabs(model / measured - 1), memset ? 0.15 : 0.05)
          << mode << " in the L2: " << measured << " GB/s measured";
    }
  }
}

TEST(SimReal, CopyPatternsGeometricMean) {
  REQUIRE_RECORDING("h200-4gpu");
  // Every concurrent-copy pattern of the four machines: measured geometric-mean |error| 5.4%
  // (no-contention baseline 8.0%).
  std::vector<double> sim, base;
  for (const char* m : {"h100-1gpu", "h200-1gpu", "h200-2gpu", "h200-4gpu"})
    for (const auto& c : cases(m))
      if (c.group == "copies") {
        sim.push_back(c.error());
        base.push_back(c.baseline_error());
      }
  EXPECT_EQ(sim.size(), 52u);
  EXPECT_LT(geomean_abs(sim), 0.06);
  EXPECT_GT(geomean_abs(base), 0.075);
}

TEST(SimReal, LargeCollectivesBesideNcclsModel) {
  REQUIRE_RECORDING("h200-4gpu");
  // NCCL collectives of 128 MiB..1 GiB, default/ring/tree variants, 2 and 4 H200s: measured
  // geometric-mean |error| 2.4% simulated (3.5% before a rank's sends stopped waiting for their
  // receiver's launch and NCCL's kernels cost what they were measured to), 8.9% for NCCL's own
  // model.
  std::vector<double> sim, nccl;
  for (const char* m : {"h200-2gpu", "h200-4gpu"})
    for (const auto& c : cases(m))
      if (c.group != "copies" && c.bytes >= 128 * kMiB) {
        sim.push_back(c.error());
        nccl.push_back(c.baseline_error());
      }
  EXPECT_EQ(sim.size(), 88u);
  EXPECT_LT(geomean_abs(sim), 0.03);
  EXPECT_LT(geomean_abs(sim), geomean_abs(nccl));
  // Tree allreduce on 2 GPUs: NCCL's model charges every tree half its bus bandwidth (+103%);
  // the simulator runs the two ranks' reduce and broadcast halves on their own channels: +1..+6%.
  for (std::uint64_t bytes : {128 * kMiB, 1024 * kMiB}) {
    const ValidationCase& c = find("h200-2gpu", "nccl/tree", "allreduce", bytes);
    EXPECT_LT(std::fabs(c.error()), 0.06) << bytes;
    EXPECT_GT(c.baseline_error(), 0.9) << bytes;
  }
  // 4-GPU ring allreduce at 1 GiB: both within 2%.
  const ValidationCase& ar = find("h200-4gpu", "nccl/ring", "allreduce", 1024 * kMiB);
  EXPECT_LT(std::fabs(ar.error()), 0.02);
  EXPECT_EQ(ar.note, "ring/Simple");
}

/// Under AddressSanitizer (about ten times slower) the accuracy checks of whole recordings, calls
/// of up to 4 GiB, took 20-360 s each, and with them the sanitized suite outgrew CI's 90 minutes.
/// The release build runs them; the sanitized build replays every recording's calls of up to
/// 4 MiB, every variant, through the same code (SimReal.EveryRecordingsCallsOfUpTo4MiB...).
#define SKIP_ACCURACY_UNDER_ASAN()                                                          \
  if (kAddressSanitizer)                                                                    \
  GTEST_SKIP()                                                                              \
      << "an accuracy check of whole recordings: the release build runs it, the sanitized " \
         "build replays every recording's calls of up to 4 MiB"

TEST(SimReal, EveryRecordingsCallsOfUpTo4MiBSimulateAtMostTwiceTheirTime) {
  // Every NCCL row of 8 B-4 MiB of every recording in tests/data/real (eager and CUDA-graph, NCCL's
  // choice and every forced algorithm, protocol and channel count; 4,639 calls in 30 folders, the
  // 24th h200-2gpu-ll128phase of 2026-11-29, its 15 calls of 4 MiB at 3.9%, the 25th to 27th
  // h200-2gpu-ceiling, h200-4gpu-ceiling and h200-4gpu-alltoall of the same day, 15, 15 and 3 calls
  // of 1-4 MiB at 5.9%, 5.6% and 14.7%, the last alltoalls the simulator gives 11-22% fast, the
  // 28th h200-2gpu-nccl-issue4 of 2026-11-30, 420 calls at 3.7%, -38.2% to +37.0%, the 29th
  // h200-2gpu-nccl-eager of the same day, 174 calls of 1-4 MiB at 3.1%, -33.1% to +22.1%, the
  // 30th h200-2gpu-nccl-eager2 on another machine, 174 at 3.4%, -29.6% to +20.7%): the
  // sanitized build's replay of the simulator on real input, and a floor for the release build.
  // Measured when written: per folder a geometric-mean |error| of 3.3-27.3% (h200-2gpu-nccl, whose
  // eager calls the host paced before recordings carried issue_us); every call simulated from
  // 94.7% fast (host-paced eager calls of h200-4gpu-nccl-small, simulated at the GPU's pace) to
  // 87.4% slow (4-GPU tree chains of 1-4 MiB, README). Bounds: at most twice the recorded time,
  // 30% a folder.
  CallSelection small;
  small.max_bytes = 4 * kMiB;
  std::size_t calls = 0, folders = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(test::source_dir() + "/tests/data/real")) {
    if (!std::filesystem::exists(entry.path() / "nccl_bench.csv")) continue;
    const std::string name = entry.path().filename().string();
    std::vector<double> errors;
    for (const auto& c : cases(name, small)) {
      EXPECT_TRUE(std::isfinite(c.simulated_ns) && c.simulated_ns > 0)
          << name << " " << c.group << " " << c.bytes;
      EXPECT_LT(c.simulated_ns, c.measured_ns * 2)
          << name << " " << c.group << " " << c.name << " " << c.bytes;
      errors.push_back(c.error());
    }
    if (errors.empty()) continue;
    std::cout << fmt::format(
        "{}: {} calls, geometric mean |error| {:.1f}%, from {:+.1f}% to {:+.1f}%\n", name,
        errors.size(), 100 * geomean_abs(errors),
        100 * *std::min_element(errors.begin(), errors.end()),
        100 * *std::max_element(errors.begin(), errors.end()));
    EXPECT_LT(geomean_abs(errors), 0.30) << name;
    calls += errors.size();
    ++folders;
  }
  EXPECT_EQ(calls, 4639U);
  EXPECT_EQ(folders, 30U);
}

TEST(SimReal, CollectivesFromOneMiBOnTwoH200s) {
  SKIP_ACCURACY_UNDER_ASAN();
  if (!std::filesystem::exists(machine("h200-2gpu-nccl") + "/nccl_bench.csv"))
    GTEST_SKIP() << "no recording at " << machine("h200-2gpu-nccl");
  // Every collective at every power of two from 1 MiB to 4 GiB on 2 H200s, NCCL's own choice,
  // recorded in a session of its own: the node's per-call floor (collective_call_us, 18.4 us)
  // comes from the other 2-GPU recording's calls of 8 B-64 KiB, so none of these calls set it.
  std::vector<double> sim, nccl;
  std::map<std::string, std::vector<double>> sim_of;
  for (const auto& c : cases("h200-2gpu-nccl"))
    if (c.group == "nccl/default") {
      sim.push_back(c.error());
      nccl.push_back(c.baseline_error());
      sim_of[c.name].push_back(c.error());
      // No call runs faster than its process issues it: NCCL's model says 10.9-17.6 us for the
      // calls of 1-4 MiB, recorded at 24-39 us.
      EXPECT_GE(c.simulated_ns, 18.4e3) << c.name << " " << c.bytes;
    }
  ASSERT_EQ(sim.size(), 65u);
  // Measured: simulated 4.6%, NCCL's model 17.2% (geometric-mean |error|).
  EXPECT_LT(geomean_abs(sim), 0.06);
  EXPECT_LT(geomean_abs(sim), geomean_abs(nccl));
  // All-gather and reduce-scatter: each channel's block also copies every chunk its rank receives
  // last out of the connection buffer, so a rank moves about 287 GB/s each way where NCCL's model
  // says 360: 6.7% and 4.9% (NCCL's model 32.7%, 31.9%). With one copy rate per block
  // (block_copy_gbps) they were 4.8% and 5.7%: the same calls within 2%, all-gather's of 512 MiB
  // to 4 GiB 1% off where they were within 0.5%, which the geometric mean weighs.
  EXPECT_LT(geomean_abs(sim_of["allgather"]), 0.07);
  EXPECT_LT(geomean_abs(sim_of["reducescatter"]), 0.06);
  // Broadcast: 2.0% (NCCL's model 3.6%). The receiver's copy of the last chunk out of its
  // buffer overlaps the root's next call, which writes into free slots without waiting for the
  // receiver's kernel (7.1% while every send waited for its receiver's launch).
  EXPECT_LT(geomean_abs(sim_of["broadcast"]), 0.03);
  // Alltoall: 6.9% (NCCL's model 22.6%), each p2p channel's block sending and copying out.
  EXPECT_LT(geomean_abs(sim_of["alltoall"]), 0.10);
}

#define REQUIRE_NCCL_RECORDING(name)                               \
  if (!std::filesystem::exists(machine(name) + "/nccl_bench.csv")) \
  GTEST_SKIP() << "no recording at " << machine(name)

TEST(SimReal, ForcedProtocolsOnTwoH200s) {
  SKIP_ACCURACY_UNDER_ASAN();
  REQUIRE_NCCL_RECORDING("h200-2gpu-nccl");
  // NCCL_ALGO/NCCL_PROTO forced, 2 H200s, 64 MiB to 4 GiB, where the GPUs and not the host set
  // the pace. Each bound is the largest |error| measured, rounded up.
  const auto worst = [](const std::string& group, const std::string& name) {
    std::vector<double> e;
    for (const auto& c : cases("h200-2gpu-nccl"))
      if (c.group == group && c.name == name && c.bytes >= 64 * kMiB) e.push_back(c.error());
    EXPECT_EQ(e.size(), 7u) << group << " " << name;
    return largest_abs(e);
  };
  // Ring/LL: every channel's block runs LL primitives at the GPU's ll_block_gbps, which the node
  // takes from the 4 GiB ring/LL allgather of this recording (0.0% there by construction). The
  // other collectives are predictions by the same loads and stores per primitive: allreduce 1.9%,
  // reducescatter 1.6%; broadcast 8.1% (its chain is link-bound: 16-byte lines for 8 data bytes
  // on the wire). NCCL's own model: 13%, 30%, 30%.
  EXPECT_LT(worst("nccl/ring_ll", "allgather"), 0.01);
  EXPECT_LT(worst("nccl/ring_ll", "allreduce"), 0.025);
  EXPECT_LT(worst("nccl/ring_ll", "reducescatter"), 0.02);
  EXPECT_LT(worst("nccl/ring_ll", "broadcast"), 0.09);
  // Alltoall's sends take their protocol by size whatever NCCL_PROTO says (Simple here): with
  // NCCL_PROTO=LL the recording is the default's, within 3%; so is the simulation (22.7% at
  // 512 MiB; it was 138% at 4 GiB while LL was simulated).
  EXPECT_LT(worst("nccl/ring_ll", "alltoall"), 0.25);
  for (std::uint64_t bytes : {64 * kMiB, 4096 * kMiB})
    EXPECT_DOUBLE_EQ(find("h200-2gpu-nccl", "nccl/ring_ll", "alltoall", bytes).simulated_ns,
                     find("h200-2gpu-nccl", "nccl/default", "alltoall", bytes).simulated_ns);
  // Tree allreduce, 2 GPUs: the chain runs the ring allreduce's primitives on the channels'
  // blocks: Simple 15.7%, LL 7.0% (NCCL's model: +95..+115%, +157..+165%). Simple was 4.7% while
  // its chunk was halved as older NCCLs do (to 256 KiB at 64 MiB): with NCCL 2.28.9's one step
  // (512 KiB) the 64 MiB call on 24 channels is +15.7% (128 MiB-4 GiB within 6%), where the 4-GPU
  // chains of 2-64 MiB went from -20..-50% to within 12% (SweepOnFourH200s, README). Each slice
  // the chain's primitives run now costs its block nccl_simple_slice_us (one a 512 KiB chunk):
  // +16.9% (every tree/Simple call recorded: 5.0% -> 3.9% geometric mean). With each channel
  // taking an even share of the call, as NCCL 2.19 and later split it (tree_channel_bytes), not
  // whole chunks dealt loop by loop: +5.1% at 64 MiB, the largest -6.4% at 256 MiB (every
  // tree/Simple call recorded: 3.9% -> 3.6%, 41 -> 21 past 20%).
  EXPECT_LT(worst("nccl/tree_simple", "allreduce"), 0.07);
  EXPECT_LT(worst("nccl/tree_ll", "allreduce"), 0.075);
  // LL128 at 1-4 GiB: each block moves data at 15/16 of its copy rate: allgather and
  // reducescatter within 4%, where NCCL's LL128 bandwidth said 16-22% fast.
  for (const char* name : {"allgather", "reducescatter"})
    for (std::uint64_t bytes : {1024 * kMiB, 2048 * kMiB, 4096 * kMiB})
      EXPECT_LT(std::fabs(find("h200-2gpu-nccl", "nccl/ring_ll128", name, bytes).error()), 0.04)
          << name << bytes;
}

/// A recording's CUDA-graph cases as errors (simulated, NCCL's model): all of them, NCCL's
/// choice alone, and those of at least 128 MiB.
struct GraphErrors {
  std::vector<double> sim, nccl, sim_default, nccl_default, large, large_nccl;
};
GraphErrors graph_errors(const std::string& name) {
  GraphErrors e;
  for (const auto& c : cases(name, launched(Launches::graph_only))) {
    e.sim.push_back(c.error());
    e.nccl.push_back(c.baseline_error());
    if (c.group == std::string("nccl/default") + kGraphSuffix) {
      e.sim_default.push_back(c.error());
      e.nccl_default.push_back(c.baseline_error());
    }
    if (c.bytes >= 128 * kMiB) {
      e.large.push_back(c.error());
      e.large_nccl.push_back(c.baseline_error());
    }
  }
  return e;
}

TEST(SimReal, CollectivesReplayedFromCudaGraphsOnTwoH200s) {
  SKIP_ACCURACY_UNDER_ASAN();
  REQUIRE_NCCL_RECORDING("h200-2gpu-nccl-graph");
  // Every variant again in another session, also replayed from CUDA graphs: the calls' GPU time
  // without the host that issued them (eager calls of 1-8 MiB here took 45-50 us each, the
  // process's pace), every graph's `iters` calls simulated back to back. Measured: all 377 graph
  // cases 4.4% geometric-mean |error| (NCCL's model 20.1%), NCCL's choice 4.6% (15.7%).
  const GraphErrors e = graph_errors("h200-2gpu-nccl-graph");
  ASSERT_EQ(e.sim.size(), 377u);
  ASSERT_EQ(e.sim_default.size(), 65u);
  EXPECT_LT(geomean_abs(e.sim), 0.06);
  EXPECT_LT(geomean_abs(e.sim_default), 0.06);
  EXPECT_LT(geomean_abs(e.sim), geomean_abs(e.nccl) / 3);
  EXPECT_LT(geomean_abs(e.sim_default), geomean_abs(e.nccl_default) / 2);
}

/// A recording folder under the test's scratch folder whose nccl_bench.csv holds `rows` under the
/// columns nccl_bench.py writes (recordings before 2026-11-28: no issue_us).
std::string nccl_bench_folder(const std::string& name, const std::string& rows,
                              bool with_issue_us = false) {
  std::filesystem::create_directories(::testing::TempDir() + name);
  test::write_temp(name + "/nccl_bench.csv",
                   std::string("variant,collective,nranks,bytes,dtype,time_us,algbw_gbps,"
                               "busbw_gbps,iters,launch") +
                       (with_issue_us ? ",issue_us\n" : "\n") + rows);
  return ::testing::TempDir() + name;
}

TEST(SimValidate, GraphRowsWaitForNoProcess) {
  // The same 1 KiB allreduce on 2 H200s, 20 calls timed eagerly (each call waits for its process
  // to issue it: collective_call_us 18.4 us; 18.8 us simulated) and replayed from a CUDA graph
  // (no process in the loop: the H200's measured LL kernel costs, nccl_ll_call_us 7.0 + 2 x
  // nccl_ll_step_us 1.0 = 9.0 us, and the data: 9.4 us).
  const std::string dir = nccl_bench_folder("graph_rows",
                                            "default,allreduce,2,1024,float32,19.0,0,0,20,eager\n"
                                            "default,allreduce,2,1024,float32,9.0,0,0,20,graph\n");
  const topology::Node node = topology::load_node(test::config("testbed-h200-2gpu.yaml"));
  const std::vector<ValidationCase> v = validate_collectives(dir, node);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].group, "nccl/default");
  EXPECT_EQ(v[1].group, "nccl/default+graph");
  EXPECT_GE(v[0].simulated_ns, 18.4e3);
  EXPECT_GT(v[1].simulated_ns, 9.0e3);
  EXPECT_LT(v[1].simulated_ns, 9.6e3);
  // The per-call floor a recording shows comes from its eager calls only.
  EXPECT_DOUBLE_EQ(collective_call_floor_us(dir), 19.0);
  nccl_bench_folder("graph_rows", "default,allreduce,2,1024,float32,19.0,0,0,20,lazy\n");
  EXPECT_EQ(test::error_of([&] { validate_collectives(dir, node); }),
            dir +
                "/nccl_bench.csv: launch 'lazy' is neither eager nor graph; write eager (calls "
                "issued from a "
                "process) or graph (calls replayed from a CUDA graph)");
}

TEST(SimValidate, EagerRowsWaitForTheirRecordedIssueTime) {
  // A 1 KiB allreduce on 2 H200s, 20 calls issued from Python whose host took 45 us per call
  // (issue_us): each call waits for its issue, so the loop takes 45 us a call plus the last call's
  // GPU time over 20 (about 9.4 / 20 us), not the node's 18.4 us. An empty issue_us falls back to
  // the node's; a graph row's is the replay's launch and waits for nothing. Anything else is
  // refused with the file and the value.
  const std::string dir =
      nccl_bench_folder("issue_rows",
                        "default,allreduce,2,1024,float32,47.0,0,0,20,eager,45.0\n"
                        "default,allreduce,2,1024,float32,19.0,0,0,20,eager,\n"
                        "default,allreduce,2,1024,float32,9.0,0,0,20,graph,3.0\n",
                        true);
  const topology::Node node = topology::load_node(test::config("testbed-h200-2gpu.yaml"));
  const std::vector<ValidationCase> v = validate_collectives(dir, node);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_NEAR(v[0].simulated_ns, 45.0e3 + 9.4e3 / 20, 0.3e3);
  EXPECT_NEAR(v[1].simulated_ns, 18.4e3 + 9.4e3 / 20, 0.3e3);
  EXPECT_GT(v[2].simulated_ns, 9.0e3);
  EXPECT_LT(v[2].simulated_ns, 9.6e3);
  nccl_bench_folder("issue_rows", "default,allreduce,2,1024,float32,47.0,0,0,20,eager,soon\n",
                    true);
  EXPECT_EQ(test::error_of([&] { validate_collectives(dir, node); }),
            dir +
                "/nccl_bench.csv: issue_us 'soon' is not a time in microseconds (0 to 1e6); write "
                "the host's time "
                "per call, or leave it empty");
}

TEST(SimValidate, EagerRowsWithoutIssueTimeWaitForTheirLoopsSmallCalls) {
  // A recording without issue_us whose allreduce loop also ran calls of 1 and 2 KiB: those took
  // 45 and 47 us a call, far above the 9.4 us their GPU work takes from a CUDA graph, so the
  // host's pace for that loop is their median, 46 us, and its 1 MiB calls wait for it (46 us a
  // call plus the last call's GPU work over 20). The all-gather loop ran no call of up to 64 KiB:
  // it waits for the node's collective_call_us (18.4 us); the graph row for no process.
  const std::string dir = nccl_bench_folder("small_call_pace",
                                            "default,allreduce,2,1024,float32,45.0,0,0,20,eager\n"
                                            "default,allreduce,2,2048,float32,47.0,0,0,20,eager\n"
                                            "default,allreduce,2,1048576,float32,50.0,0,0,20,eager\n"
                                            "default,allgather,2,1048576,float32,30.0,0,0,20,eager\n"
                                            "default,allreduce,2,1048576,float32,25.0,0,0,20,graph\n");
  const topology::Node node = topology::load_node(test::config("testbed-h200-2gpu.yaml"));
  CallSelection from_one_mib;
  from_one_mib.min_bytes = kMiB;
  const std::vector<ValidationCase> v = validate_collectives(dir, node, from_one_mib);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].pace, HostPace::small_calls);
  EXPECT_DOUBLE_EQ(v[0].issue_us, 46.0);
  EXPECT_GT(v[0].simulated_ns, 46.0e3);
  EXPECT_LT(v[0].simulated_ns, 48.0e3);
  EXPECT_EQ(v[1].pace, HostPace::node);
  EXPECT_EQ(v[1].issue_us, 0.0);
  EXPECT_GT(v[1].simulated_ns, 18.4e3);
  EXPECT_LT(v[1].simulated_ns, 20.0e3);
  EXPECT_EQ(v[2].pace, HostPace::none);
  EXPECT_LT(v[2].simulated_ns, 40.0e3);
}

TEST(SimValidate, GraphReplaysWhoseLaunchHeldTheHostAreCountedApart) {
  // A CUDA graph of 80 ring/LL128 all-gathers of 8 MiB on 2 H200s whose replay's launch held the
  // host for 46.0 of the 47.0 us a call (h200-2gpu-nccl-issue4's ll128_iters.csv): the host fed
  // the GPUs as they freed room, so the recording cannot tell their time from the feed. The same
  // call from a graph of 20, launched in 4.8 us a call, is a replay as any other. Both are still
  // simulated as replays (no host to wait for).
  const std::string dir = nccl_bench_folder("launch_bound",
                                            "ring_ll128,allgather,2,8388608,float32,47.0,0,0,80,graph,46.0\n"
                                            "ring_ll128,allgather,2,8388608,float32,37.8,0,0,20,graph,4.8\n",
                                            true);
  const topology::Node node = topology::load_node(test::config("testbed-h200-2gpu.yaml"));
  const std::vector<ValidationCase> v = validate_collectives(dir, node);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].pace, HostPace::launch_bound);
  EXPECT_EQ(v[1].pace, HostPace::none);
  EXPECT_EQ(v[0].issue_us, 0.0);
  EXPECT_NEAR(v[0].simulated_ns, v[1].simulated_ns, 0.02 * v[1].simulated_ns);
}

TEST(SimValidate, PinnedChannelVariantsRunOnThatManyChannels) {
  // nccl_bench.py --channels N names a variant <v>_ch<N>: simulated with N channels, so a 64 MiB
  // ring/Simple all-gather on 2 H200s takes longer on 2 channels than on 16 (its blocks carry the
  // data: about 8 times as long less the fixed costs). Names that are no such count are skipped,
  // as the variants the simulator does not run are.
  const std::string dir =
      nccl_bench_folder("channel_rows",
                        "ring_simple_ch2,allgather,2,67108864,float32,1000,0,0,5,graph\n"
                        "ring_simple_ch16,allgather,2,67108864,float32,200,0,0,5,graph\n"
                        "ring_simple_ch99,allgather,2,67108864,float32,200,0,0,5,graph\n"
                        "ring_simple_chx,allgather,2,67108864,float32,200,0,0,5,graph\n"
                        "ring_simple_ch,allgather,2,67108864,float32,200,0,0,5,graph\n");
  const topology::Node node = topology::load_node(test::config("testbed-h200-2gpu.yaml"));
  const std::vector<ValidationCase> v = validate_collectives(dir, node);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].group, "nccl/ring_simple_ch2+graph");
  EXPECT_EQ(v[1].group, "nccl/ring_simple_ch16+graph");
  EXPECT_GT(v[0].simulated_ns, 5 * v[1].simulated_ns);
  EXPECT_LT(v[0].simulated_ns, 8.5 * v[1].simulated_ns);
}

TEST(SimReal, ARankLateToABroadcastHoldsUpOnlyTheRanksAfterIt) {
  // NCCL's sends wait for a free slot in the receiver's connection buffer, not for the receiver's
  // kernel (tests/data/real/h200-4gpu-pipeline, tools/record/nccl_pipeline.py): one broadcast
  // from rank 0 on 4 H200s with rank 1 released about 213 us late. Recorded, the root's time does
  // not move (8 MiB: 45.0 us against 44.4 us on time; 32 MiB: 113.3 against 113.2) and the late
  // rank only forwards what already waits in its buffer (42.1 and 116.7 us). Simulated before
  // sends stopped waiting for their receiver's launch, the root took 213 us more.
  if (!std::filesystem::exists(machine("h200-4gpu-pipeline") + "/nccl_pipeline.csv"))
    GTEST_SKIP() << "no recording at " << machine("h200-4gpu-pipeline");
  const topology::Node node = topology::load_node(test::config("testbed-h200-4gpu.yaml"));
  const std::vector<ValidationCase> v = validate_pipeline(machine("h200-4gpu-pipeline"), node);
  auto pick = [&](const std::string& group, int rank,
                  std::uint64_t bytes) -> const ValidationCase& {
    for (const auto& c : v)
      if (c.group == group && c.name == "broadcast rank " + std::to_string(rank) &&
          c.bytes == bytes)
        return c;
    throw std::runtime_error("no case " + group);
  };
  for (std::uint64_t bytes : {8 * kMiB, 32 * kMiB}) {
    const ValidationCase& on_time = pick("pipeline/on time", 0, bytes);
    const ValidationCase& late = pick("pipeline/rank 1 late", 0, bytes);
    EXPECT_NEAR(late.measured_ns / on_time.measured_ns, 1.0, 0.05) << bytes;
    EXPECT_NEAR(late.simulated_ns / on_time.simulated_ns, 1.0, 0.01) << bytes;
    // The ranks behind the late one wait for it: within 12% (measured: -0.3% .. -9.7%).
    for (int rank : {2, 3})
      EXPECT_LT(std::fabs(pick("pipeline/rank 1 late", rank, bytes).error()), 0.12) << rank;
    EXPECT_LT(std::fabs(pick("pipeline/rank 2 late", 3, bytes).error()), 0.12) << bytes;
  }
}

TEST(SimReal, TinySimpleCallsCostWhatTheGpusMeasured) {
  REQUIRE_NCCL_RECORDING("h200-4gpu-nccl-small");
  // 20 back-to-back ring/Simple broadcasts, all-gathers and all-reduces of 8 B-2 KiB replayed
  // from CUDA graphs on 4 H200s: 14.0-14.4, 23.1-24.5 and 31.6-33.5 us a call. The testbed's
  // GPUs carry the per-call and per-step costs found from these 15 calls (nccl_simple_call_us 9.0,
  // nccl_simple_step_us 4.6): mean |error| 1.9%, largest 6.4%. NCCL's baseLat and hwLat (8.4 and
  // 3.4 us) leave them 13-24% under, and NCCL's model 9-24%.
  std::vector<double> sim, nccl;
  for (const auto& c : cases("h200-4gpu-nccl-small", launched(Launches::graph_only)))
    if (c.group == std::string("nccl/ring_simple") + kGraphSuffix && c.bytes <= 2048 &&
        (c.name == "broadcast" || c.name == "allgather" || c.name == "allreduce")) {
      sim.push_back(c.error());
      nccl.push_back(c.baseline_error());
    }
  ASSERT_EQ(sim.size(), 15u);
  EXPECT_LT(largest_abs(sim), 0.07);
  EXPECT_GT(geomean_abs(nccl), 0.09);
}

TEST(SimReal, HeldOutSweepOnTwoH200s) {
  SKIP_ACCURACY_UNDER_ASAN();
  REQUIRE_NCCL_RECORDING("h200-2gpu-nccl-graph2");
  // A third session of the same sweep (2026-11-26 03:15 UTC, another nvidia-h200-x2 machine),
  // kept out of every modelling decision of issue 19 and scored once the model was done:
  // CUDA-graph cases 5.0% geometric-mean |error| over all 377 (NCCL's model 18.7%), NCCL's choice
  // 5.4% (15.2%); from 128 MiB 3.7% (16.3%). After two later changes (LL128 pipelined by warps,
  // alltoall's 640-thread blocks): 4.8% (largest 40%, was 89%), 5.1%, 3.1%. After sends stopped
  // waiting for their receiver's launch (and every graph's calls simulated): 4.5%, 4.5%, 2.9%;
  // with the kernel costs measured on 4 H200s (nccl_simple_call_us, ...): 3.9%, 3.4%, 3.0%.
  const GraphErrors e = graph_errors("h200-2gpu-nccl-graph2");
  ASSERT_EQ(e.sim.size(), 377u);
  EXPECT_LT(geomean_abs(e.sim), 0.05);
  EXPECT_LT(geomean_abs(e.sim_default), 0.05);
  EXPECT_LT(geomean_abs(e.large), 0.035);
  EXPECT_LT(geomean_abs(e.sim), geomean_abs(e.nccl) / 3);
}

TEST(SimReal, SweepOnFourH200s) {
  SKIP_ACCURACY_UNDER_ASAN();
  REQUIRE_NCCL_RECORDING("h200-4gpu-nccl-graph");
  // The first 4-GPU sweep with forced protocols and CUDA-graph rows (2026-11-26 04:30 UTC),
  // recorded after every modelling change of issue 19 then and scored once: graph cases 5.4%
  // geometric-mean |error| over all 377 (NCCL's model 6.5%), NCCL's choice 5.4% (6.8%), from
  // 128 MiB 2.5% (4.0%); its worst, Simple broadcast of 1-32 MiB, +61..+118%. No longer held
  // out: those broadcasts led to tests/data/real/h200-4gpu-pipeline and to sends that wait for a
  // free slot, not for their receiver's launch. Since: 4.3% (largest 56%), 3.7%, 2.1%; with the
  // kernel costs measured (nccl_simple_call_us, ...): 4.1% (largest 64%), 3.4%, 2.2%.
  const GraphErrors e = graph_errors("h200-4gpu-nccl-graph");
  ASSERT_EQ(e.sim.size(), 377u);
  EXPECT_LT(geomean_abs(e.sim), 0.05);
  EXPECT_LT(geomean_abs(e.sim_default), 0.045);
  EXPECT_LT(largest_abs(e.sim), 0.7);
  EXPECT_LT(geomean_abs(e.sim), geomean_abs(e.nccl));
  EXPECT_LT(geomean_abs(e.large), 0.025);
  EXPECT_LT(geomean_abs(e.large), geomean_abs(e.large_nccl));
}

TEST(SimReal, CollectivesPinnedToFewerChannels) {
  SKIP_ACCURACY_UNDER_ASAN();
  REQUIRE_NCCL_RECORDING("h200-2gpu-channels");
  REQUIRE_NCCL_RECORDING("h200-4gpu-channels");
  // Ring allreduce, all-gather and reduce-scatter in each protocol, and tree/Simple allreduce on 4
  // GPUs, at NCCL's channel count and pinned to 1, 2, 4, 8 and 16 channels, 1 MiB-256 MiB from
  // CUDA graphs (tools/record/run_nccl_channels.sh, 2026-11-27). Scored once with one copy rate
  // for every block (block_copy_gbps, 24 blocks at once): 10.0% geometric-mean |error| over 486
  // cases on 2 x H200 (NCCL's model 50.9%), 9.4% over 540 on 4 x H200 (38.1%); one channel's
  // calls ran 36-38% faster than simulated. Each block now costs what its loads, stores and peer
  // stores cost one block alone, and the call's blocks on a GPU queue for its memory
  // (nccl_simple_*_gbps, nccl_ll128_*_gbps from the 2-GPU set's one-channel calls at 256 MiB,
  // nccl_block_memory_gbps from h200-2gpu-nccl-graph at 4 GiB; the 4-GPU set is held out):
  // 3.2% and 4.3%; per protocol at 1-8 channels 0.8-3.6%, at 16 channels 3.5-8.1% (Simple and
  // LL128 calls of 16-256 MiB at 16 and 24 channels simulated from 25% fast to 15% slow: the
  // recordings' bus bandwidth there still grows up to 22% from 256 MiB to 4 GiB, which the
  // model, whose ceiling comes from 4 GiB, does not follow below it). README, "Simulation".
  // Ring/LL: 1.4-3.3% at every channel count since the loads of buffers the L2 holds cost its
  // blocks nothing (LlPrimitivesLoadBuffersTheL2HoldsForNothing; the 4-GPU set held out of that
  // rule, read from 2-GPU one-channel calls); 3.0-10.8% before, one channel's reduce-scatters
  // +52..+71%. Both sets since: 2.4% and 3.3%; 2.2% and 2.8% with the slices of Simple primitives
  // (nccl_simple_slice_us).
  for (const auto& [name, count, bound] : {std::tuple{"h200-2gpu-channels", 486u, 0.03},
                                           std::tuple{"h200-4gpu-channels", 540u, 0.04}}) {
    const GraphErrors e = graph_errors(name);
    ASSERT_EQ(e.sim.size(), count) << name;
    EXPECT_LT(geomean_abs(e.sim), bound) << name;
    EXPECT_LT(geomean_abs(e.sim), geomean_abs(e.nccl) / 8) << name;
    std::map<std::string, std::vector<double>> of_variant;
    for (const auto& c : cases(name, launched(Launches::graph_only)))
      of_variant[c.group].push_back(c.error());
    for (const char* proto : {"ring_simple", "ring_ll128", "ring_ll"})
      for (int channels : {1, 2, 4, 8, 16}) {
        const std::vector<double>& errors =
            of_variant[fmt::format("nccl/{}_ch{}{}", proto, channels, kGraphSuffix)];
        ASSERT_EQ(errors.size(), 27u) << name << " " << proto << " " << channels;
        EXPECT_LT(geomean_abs(errors), channels < 16 ? 0.04 : 0.09)
            << name << " " << proto << " " << channels;
      }
  }
}

/// Whether a case is one of a CUDA-graph variant's (nccl/<variant>+graph) of from..to bytes.
bool in_graph_group(const ValidationCase& c, const char* variant, std::uint64_t from,
                    std::uint64_t to) {
  return c.group == fmt::format("nccl/{}{}", variant, kGraphSuffix) && c.bytes >= from &&
         c.bytes <= to;
}

TEST(SimReal, HeldOutRecordingsOfAnotherDayOnTwoH200s) {
  REQUIRE_NCCL_RECORDING("h200-2gpu-ddp");
  REQUIRE_NCCL_RECORDING("h200-2gpu-ddp2");
  REQUIRE_NCCL_RECORDING("h200-2gpu-blocks");
  // Three nvidia-h200-x2 sessions of 2026-11-28, recorded after every rule the simulator has and
  // scored once, nothing tuned on them. NCCL's default collectives of 1 MiB-4 GiB replayed from
  // CUDA graphs (tools/record/run_ddp_apps.sh, 65 cases each): 4.3% and 3.9% geometric-mean
  // |error| (largest 28% and 24%: all-gathers of 4-16 MiB 18-28% fast), NCCL's model 14.8% and
  // 14.5%; 4.0% and 3.8% (largest 23% and 20%) once each slice of a Simple primitive cost its
  // block nccl_simple_slice_us (from another recording, h200-2gpu-buffsize).
  for (const char* name : {"h200-2gpu-ddp", "h200-2gpu-ddp2"}) {
    const GraphErrors e = graph_errors(name);
    ASSERT_EQ(e.sim_default.size(), 65u) << name;
    EXPECT_LT(geomean_abs(e.sim_default), 0.05) << name;
    EXPECT_LT(geomean_abs(e.sim_default), geomean_abs(e.nccl_default) / 3) << name;
  }
  // The calls the blocks' rates are solved from, recorded again (run_nccl_blocks.sh): ring
  // allreduce, all-gather and reduce-scatter on one channel at 256 MiB, Simple and LL128, within
  // 0.1-0.6% of the rates solved from the first session (the rates are the GPU's, not a fit to
  // one session); with its LL and NCCL-count calls, 2.3% over 39 cases.
  const GraphErrors blocks = graph_errors("h200-2gpu-blocks");
  ASSERT_EQ(blocks.sim.size(), 39u);
  EXPECT_LT(geomean_abs(blocks.sim), 0.03);
  int one_channel = 0;
  for (const auto& c : cases("h200-2gpu-blocks", launched(Launches::graph_only))) {
    if (in_graph_group(c, "ring_simple_ch1", 256 * kMiB, 256 * kMiB) ||
        in_graph_group(c, "ring_ll128_ch1", 256 * kMiB, 256 * kMiB)) {
      EXPECT_LT(std::fabs(c.error()), 0.01) << c.group << " " << c.name;
      ++one_channel;
    }
  }
  EXPECT_EQ(one_channel, 6);
}

TEST(SimReal, HeldOutSessionOfThePeerStoreCeilingOnTwoH200s) {
  SKIP_ACCURACY_UNDER_ASAN();
  REQUIRE_NCCL_RECORDING("h200-2gpu-ceiling");
  // A fourth nvidia-h200-x2 session (2026-11-29, tools/record/run_nccl_ceiling.sh), scored once
  // with nothing tuned on it: NCCL's default collectives of 1 MiB-4 GiB and ring/Simple and
  // ring/LL128 broadcast, allreduce, all-gather and reduce-scatter of 256 MiB-4 GiB, all replayed
  // from CUDA graphs, 105 cases. Measured: 2.9% geometric-mean |error| (NCCL's model 12.3%), none
  // past 20%, the largest the all-gather of 4 MiB (-19.9%: ring/Simple all-gathers of 4-32 MiB on
  // 2 GPUs run 6-13 us longer than simulated, as in h200-2gpu-ddp and -ddp2); NCCL's choice alone
  // 3.2% (15.1%). Bounds: 0.5-0.6 points above the scored figures, no call past 20% plus one.
  const GraphErrors e = graph_errors("h200-2gpu-ceiling");
  ASSERT_EQ(e.sim.size(), 105u);
  ASSERT_EQ(e.sim_default.size(), 65u);
  EXPECT_LT(geomean_abs(e.sim), 0.035);
  EXPECT_LT(geomean_abs(e.sim_default), 0.037);
  EXPECT_LT(geomean_abs(e.sim), geomean_abs(e.nccl) / 3);
  EXPECT_LE(count_past(e.sim, 0.2), 1u);
}

TEST(SimReal, HeldOutSessionOfThePeerStoreCeilingOnFourH200s) {
  SKIP_ACCURACY_UNDER_ASAN();
  REQUIRE_NCCL_RECORDING("h200-4gpu-ceiling");
  // The same script on an nvidia-h200-x4 machine (2026-11-29, the first 4-GPU machine lent in four
  // sessions), scored once with nothing tuned on it: 105 CUDA-graph calls of 1 MiB-4 GiB, 2.3%
  // geometric-mean |error| (NCCL's model 4.9%), one past 20%: NCCL's default alltoalls of 4 MiB to
  // 512 MiB ran 11-23% longer than simulated, as in the 4-GPU sweeps of 2026-11-26 (9-21% there;
  // the same times within a few percent); NCCL's choice alone 3.1% (7.2%). The 4 GiB broadcast ran at 361.9 GB/s, a ring
  // of four storing both ways (366 GB/s measured for that on 2 GPUs). Bounds: half a point above.
  const GraphErrors e = graph_errors("h200-4gpu-ceiling");
  ASSERT_EQ(e.sim.size(), 105u);
  EXPECT_LT(geomean_abs(e.sim), 0.028);
  EXPECT_LT(geomean_abs(e.sim_default), 0.036);
  EXPECT_LT(geomean_abs(e.sim), geomean_abs(e.nccl));
  EXPECT_LE(count_past(e.sim, 0.2), 2u);
}

TEST(SimReal, TheShippedHgxH200NodeSimulatesTheRecordedH200sAsTheirTestbedDoes) {
  SKIP_ACCURACY_UNDER_ASAN();
  REQUIRE_NCCL_RECORDING("h200-4gpu-channels");
  // configs/hgx-h200.yaml carries the H200's measured channel-block rates (the testbeds' GPU):
  // the 4-GPU pinned-channel recording on its GPUs 0-3 (NVSwitch, as the recorded machine) gives
  // 2.8% geometric-mean |error| over 540 cases, as on testbed-h200-4gpu (2.9% before the slices'
  // fixed time, nccl_simple_slice_us); 7.1% (largest 64%) with the one copy rate per block the
  // node had before.
  const auto node = topology::load_node(test::config("hgx-h200.yaml"));
  std::vector<double> errors;
  for (const auto& c :
       validate_collectives(machine("h200-4gpu-channels"), node, launched(Launches::graph_only)))
    errors.push_back(c.error());
  ASSERT_EQ(errors.size(), 540u);
  EXPECT_LT(geomean_abs(errors), 0.035);
}

TEST(SimReal, LlPrimitivesLoadBuffersTheL2HoldsForNothing) {
  SKIP_ACCURACY_UNDER_ASAN();
  REQUIRE_NCCL_RECORDING("h200-2gpu-nccl-l2");
  // 2 x H200, ring LL on one channel, from CUDA graphs, each size once on one set of buffers (the
  // L2 holds them up to 32 MiB) and once with each call on the next of as many sets as hold
  // 512 MiB (tools/record/run_nccl_l2.sh, 2026-11-27): reduce-scatter of 8 MiB 13.8 GB/s against
  // 8.4, allreduce 7.3 against 5.3, all-gather 8.5 against 8.0. With the user-buffer loads of
  // send, recvReduceSend, recvReduceCopy and recvReduceCopySend free where the L2 holds the
  // buffers (nccl::ll_l2_free_loads; the GPUs' l2_resident_mib and l2_cache_mib), every call of
  // 1-16 MiB on one set is within 8% (it was +60..+68% for reduce-scatter, +38..+42% for
  // allreduce), and with cold buffers every call from 8 MiB within 5%. (Cold calls of 1-4 MiB run
  // up to 30% slower than simulated: a per-call cost that grows with the number of buffer sets
  // in the graph, as large for Simple, which the L2 barely speeds up: not the L2's.) The
  // recordings pinned to fewer channels: CollectivesPinnedToFewerChannels.
  int warm = 0, cold = 0;
  for (const auto& c : cases("h200-2gpu-nccl-l2", launched(Launches::graph_only))) {
    if (in_graph_group(c, "ring_ll_ch1", kMiB, 16 * kMiB)) {
      ++warm;
      EXPECT_LT(std::abs(c.error()), 0.10) << c.name << " " << c.bytes;
    }
    if (in_graph_group(c, "ring_ll_ch1_cold", 8 * kMiB, 128 * kMiB)) {
      ++cold;
      EXPECT_LT(std::abs(c.error()), 0.06) << c.name << " " << c.bytes;
    }
  }
  EXPECT_EQ(warm, 15);  // 5 sizes x 3 collectives
  EXPECT_EQ(cold, 15);  // 8-128 MiB
}

TEST(SimReal, LlConnectionBuffersTakeTheirPartOfTheL2) {
  SKIP_ACCURACY_UNDER_ASAN();
  REQUIRE_NCCL_RECORDING("h200-2gpu-nccl-l2");
  REQUIRE_NCCL_RECORDING("h200-4gpu-nccl-l2");
  // The same recordings' ring LL calls at NCCL's channel count (24 on 2 x H200, 16 on 4), on one
  // set of buffers. Each channel's receive connection keeps the lines it receives in its GPU's
  // memory, up to its 512 KiB LL buffer (nccl::ll_connection_bytes): 12 MiB on 24 channels, which
  // the L2 holds beside the user's buffers. With them counted, an allreduce of 32 MiB (44 MiB in
  // all) keeps a quarter of its loads in the L2, not all: 2 GPUs -19.4% -> -0.5%, 4 GPUs
  // -6.6% -> +1.5%; a 4-GPU reduce-scatter of 32 MiB -11.5% -> +1.8%. Every such call of 8-128 MiB
  // within 15% (the 2-GPU reduce-scatter of 16 MiB, -24.6% before, is -14.5%: 36 MiB in all, the
  // L2 kept fewer of its loads than the linear fall to l2_cache_mib gives).
  int calls = 0;
  for (const char* name : {"h200-2gpu-nccl-l2", "h200-4gpu-nccl-l2"}) {
    for (const auto& c : cases(name, launched(Launches::graph_only))) {
      if (!in_graph_group(c, "ring_ll", 8 * kMiB, 128 * kMiB)) continue;
      ++calls;
      EXPECT_LT(std::abs(c.error()), 0.15) << name << " " << c.name << " " << c.bytes;
      if (c.bytes == 32 * kMiB && c.name != "allgather") {
        EXPECT_LT(std::abs(c.error()), 0.03) << name << " " << c.name << " " << c.bytes;
      }
    }
  }
  EXPECT_EQ(calls, 30);  // 5 sizes x 3 collectives x 2 machines
}

TEST(SimReal, HeldOutLlCallsAcrossTheL2ByChannelCount) {
  SKIP_ACCURACY_UNDER_ASAN();
  REQUIRE_NCCL_RECORDING("h200-2gpu-llfifo");
  // 2 x H200, recorded after the connection buffers' lines joined the L2 footprint and scored once
  // (tools/record/run_nccl_llfifo.sh, 2026-11-28): ring/LL allreduce and reduce-scatter of
  // 16-64 MiB in 8 MiB steps at 4, 8, 16 and 24 channels, from CUDA graphs. On one set of buffers
  // 2.04% geometric-mean |error| (2.66% without the lines: `validation_diff.py BEFORE AFTER
  // --min-bytes 0 --group '_ch[0-9]+\+graph$'` on the two builds' CSVs), largest 24% (a
  // reduce-scatter of 32 MiB on 4 channels, +24% either way); on a new set each call every one
  // within 3.2%. The test prints its figures.
  std::vector<double> warm, cold_errors;
  int cold = 0;
  for (const auto& c : cases("h200-2gpu-llfifo", launched(Launches::graph_only))) {
    if (c.group.find("_cold") != std::string::npos) {
      ++cold;
      cold_errors.push_back(c.error());
      EXPECT_LT(std::abs(c.error()), 0.04) << c.group << " " << c.name << " " << c.bytes;
    } else {
      warm.push_back(c.error());
    }
  }
  EXPECT_EQ(cold, 56);
  ASSERT_EQ(warm.size(), 56u);
  const auto past_10 =
      std::count_if(warm.begin(), warm.end(), [](double e) { return std::abs(e) > 0.10; });
  std::cout << fmt::format(
      "llfifo, one set of buffers: geometric mean |error| {:.2f}%, largest {:.1f}%, {} past 10%; "
      "a new set each call: largest {:.1f}%\n",
      100 * geomean_abs(warm), 100 * largest_abs(warm), past_10, 100 * largest_abs(cold_errors));
  EXPECT_LT(geomean_abs(warm), 0.022);
  EXPECT_LT(largest_abs(warm), 0.25);
  EXPECT_LE(std::count_if(warm.begin(), warm.end(), [](double e) { return std::abs(e) > 0.10; }),
            4);
}

TEST(SimReal, TreeLlAllreducesGainNothingFromTheL2) {
  SKIP_ACCURACY_UNDER_ASAN();
  REQUIRE_NCCL_RECORDING("h200-2gpu-treel2");
  REQUIRE_NCCL_RECORDING("h200-2gpu-nccl-graph");
  // 2 x H200 (tools/record/run_nccl_treel2.sh, 2026-11-28): tree/LL allreduces of 8-32 MiB took
  // 0.94-1.06 of their time on a new set of buffers each call when run on one set, where ring/LL
  // took 0.71-0.95: the tree's chain gains nothing from the L2. With its user-buffer loads freed
  // as a ring's are, the simulator had the older recording's tree/LL calls of 4-32 MiB 8-31% fast;
  // charged, every one within 12%, and on this recording the calls on one set and on a new set
  // each are simulated alike, 4-128 MiB within 12% (the test prints both ranges).
  std::vector<double> older, warm_errors;
  for (const auto& c : cases("h200-2gpu-nccl-graph", launched(Launches::graph_only)))
    if (in_graph_group(c, "tree_ll", 4 * kMiB, 32 * kMiB)) {
      older.push_back(c.error());
      EXPECT_LT(std::abs(c.error()), 0.12) << c.name << " " << c.bytes;
    }
  std::map<std::uint64_t, double> warm_ns;
  int warm = 0, cold = 0;
  for (const auto& c : cases("h200-2gpu-treel2", launched(Launches::graph_only))) {
    if (in_graph_group(c, "tree_ll", 4 * kMiB, 128 * kMiB)) {
      ++warm;
      warm_ns[c.bytes] = c.simulated_ns;
      warm_errors.push_back(c.error());
      EXPECT_LT(std::abs(c.error()), 0.12) << c.bytes;
    }
  }
  ASSERT_FALSE(older.empty());
  ASSERT_FALSE(warm_errors.empty());
  std::cout << fmt::format(
      "tree/LL, h200-2gpu-nccl-graph 4-32 MiB: {:+.1f}..{:+.1f}%; h200-2gpu-treel2 4-128 MiB: "
      "{:+.1f}..{:+.1f}%\n",
      100 * *std::min_element(older.begin(), older.end()),
      100 * *std::max_element(older.begin(), older.end()),
      100 * *std::min_element(warm_errors.begin(), warm_errors.end()),
      100 * *std::max_element(warm_errors.begin(), warm_errors.end()));
  for (const auto& c : cases("h200-2gpu-treel2", launched(Launches::graph_only)))
    if (in_graph_group(c, "tree_ll_cold", 4 * kMiB, 128 * kMiB)) {
      ++cold;
      EXPECT_NEAR(c.simulated_ns, warm_ns.at(c.bytes), 1e-9 * c.simulated_ns) << c.bytes;
    }
  EXPECT_EQ(warm, 6);
  EXPECT_EQ(cold, 6);
}

TEST(SimReal, TreeLl128ChannelsRunAtTheirPrimitivesRateBelowNcclsOwnFigure) {
  SKIP_ACCURACY_UNDER_ASAN();
  REQUIRE_NCCL_RECORDING("h200-4gpu-treechain");
  // 4 x H200 (tools/record/run_nccl_treechain.sh, nvidia-h200-x4, 2026-11-28): tree/LL128
  // allreduce pinned to 1 and 4 channels. A tree/LL128 call ran at NCCL's own tree/LL128
  // bandwidth, whatever its channels: 70-92% fast from 2 MiB (32 MiB on one channel: 3.40 ms
  // recorded, 0.28 ms simulated). Its blocks now run its primitives at the GPU's LL128 rates, as
  // the ring's do, below NCCL's figure for the rank's channels together: one channel alone gives
  // 14.8 GB/s bus bandwidth where NCCL's figure gives each of 24 channels 8. From 8 MiB within 25%
  // (the test prints the range); the calls of 2 MiB are 19-24% fast (their excess over the steady
  // rate is not modelled).
  std::vector<double> errors;
  for (const auto& c : cases("h200-4gpu-treechain", launched(Launches::graph_only))) {
    if (!in_graph_group(c, "tree_ll128_ch1", 8 * kMiB, 32 * kMiB) &&
        !in_graph_group(c, "tree_ll128_ch4", 8 * kMiB, 32 * kMiB))
      continue;
    errors.push_back(c.error());
    EXPECT_LT(std::abs(c.error()), 0.25) << c.group << " " << c.bytes;
  }
  ASSERT_EQ(errors.size(), 4u);
  std::cout << fmt::format("tree/LL128 pinned to 1 and 4 channels, 8-32 MiB: {:+.1f}..{:+.1f}%\n",
                           100 * *std::min_element(errors.begin(), errors.end()),
                           100 * *std::max_element(errors.begin(), errors.end()));
}

TEST(SimReal, HeldOutWarmAndColdBuffersAndTreeChainsOnFourH200s) {
  SKIP_ACCURACY_UNDER_ASAN();
  REQUIRE_NCCL_RECORDING("h200-4gpu-nccl-l2");
  // The same script on 4 x H200 (nvidia-h200-x4, 2026-11-28), with tree/Simple allreduce at
  // NCCL's channel count and at 16 appended, recorded after the L2 rule for LL and NCCL 2.28.9's
  // tree/Simple chunk went in and scored once: its calls on one set of buffers 3.3% over 160
  // (2 past 20%), every call 4.5% over 304 (NCCL's model 32.9%; the cold calls of 1-4 MiB carry the
  // per-call cost of many buffer sets, not modelled). LL on one channel, one set, 1-16 MiB:
  // all-gather +3..+5%, allreduce +10..+12%, reduce-scatter 0..+3%; with a set per call from
  // 8 MiB 0..+5%. Tree/Simple at NCCL's count, 1-128 MiB: -4..+16%.
  std::vector<double> warm;
  int ll = 0, tree = 0;
  for (const auto& c : cases("h200-4gpu-nccl-l2", launched(Launches::graph_only))) {
    if (c.bytes >= kMiB && c.group.find("_cold") == std::string::npos) warm.push_back(c.error());
    if (in_graph_group(c, "ring_ll_ch1", kMiB, 16 * kMiB) ||
        in_graph_group(c, "ring_ll_ch1_cold", 8 * kMiB, 128 * kMiB)) {
      ++ll;
      EXPECT_LT(std::abs(c.error()), 0.13) << c.group << " " << c.name << " " << c.bytes;
    }
    if (in_graph_group(c, "tree_simple", kMiB, 128 * kMiB)) {
      ++tree;
      EXPECT_LT(std::abs(c.error()), 0.17) << c.name << " " << c.bytes;
    }
  }
  EXPECT_EQ(ll, 30);
  EXPECT_EQ(tree, 8);
  ASSERT_EQ(warm.size(), 160u);
  EXPECT_LT(geomean_abs(warm), 0.035);
}

/// A long-call recording's bounds (run_nccl_channels.sh --large: 168 cases): geometric-mean and
/// largest |error|, how many times closer than NCCL's model, and every call at 4 and 8 channels.
struct LongCallBounds {
  double geomean, largest, nccl_factor, at_4_or_8;
};

void expect_long_calls(const std::string& name, const LongCallBounds& bound) {
  const GraphErrors e = graph_errors(name);
  ASSERT_EQ(e.sim.size(), 168u) << name;
  EXPECT_LT(geomean_abs(e.sim), bound.geomean) << name;
  EXPECT_LT(largest_abs(e.sim), bound.largest) << name;
  EXPECT_LT(geomean_abs(e.sim), geomean_abs(e.nccl) / bound.nccl_factor) << name;
  for (const auto& c : cases(name, launched(Launches::graph_only))) {
    if (c.group.find("_ch4+") != std::string::npos || c.group.find("_ch8+") != std::string::npos) {
      EXPECT_LT(std::fabs(c.error()), bound.at_4_or_8)
          << c.group << " " << c.name << " " << c.bytes;
    }
  }
}

TEST(SimReal, LongCallsPinnedToChannelsHeldOutOnTwoAndFourH200s) {
  SKIP_ACCURACY_UNDER_ASAN();
  REQUIRE_NCCL_RECORDING("h200-2gpu-channels-large");
  REQUIRE_NCCL_RECORDING("h200-4gpu-channels-large");
  // Ring allreduce, all-gather and reduce-scatter in Simple and LL128 at 4, 8 and 16 channels and
  // NCCL's 24, 64 MiB-4 GiB from CUDA graphs (run_nccl_channels.sh --large on 2 x H200,
  // 2026-11-27), recorded after the blocks' per-operation rates and their queue went in and
  // scored once: 1.1% geometric-mean |error| over 168 cases (largest 24%; NCCL's model 42.4%).
  // At 4 and 8 channels every call is within 2% at every size: one channel's rate does not grow
  // with the size. At 16 and 24 channels the recorded bus bandwidth still grows 3-22% from
  // 256 MiB to 4 GiB, and the calls of 64-512 MiB run up to 8% (Simple) and 24% (LL128 at 24)
  // slower than simulated.
  // With each slice's fixed time charged apart from the bytes (nccl_simple_slice_us, the rates
  // solved again without it): 1.1%, every call at 4 and 8 channels within 3% (2.8%).
  expect_long_calls("h200-2gpu-channels-large",
                    {.geomean = 0.015, .largest = 0.25, .nccl_factor = 20, .at_4_or_8 = 0.03});
  // The same on 4 x H200 (nvidia-h200-x4, 2026-11-27), held out likewise: 2.3% over 168 cases
  // (largest 14%; NCCL's model 24.3%). At 4 and 8 channels every call within 6% (LL128
  // reduce-scatter +5..+6%, all-gather -3..-4%: the 4-GPU mixes the 2-GPU rates were solved
  // without).
  expect_long_calls("h200-4gpu-channels-large",
                    {.geomean = 0.03, .largest = 0.15, .nccl_factor = 8, .at_4_or_8 = 0.065});
}

TEST(SimReal, HeldOutSweepOnFourH200s) {
  SKIP_ACCURACY_UNDER_ASAN();
  REQUIRE_NCCL_RECORDING("h200-4gpu-nccl-graph2");
  // The 4-GPU sweep again (2026-11-26 10:05 UTC, tools/record/run_nccl.sh on nvidia-h200-x4),
  // recorded after the overlap of calls across ranks was modelled, kept out of every decision
  // and scored once: CUDA-graph cases 4.3% geometric-mean |error| over all 377 (largest 63%,
  // a forced tree/LL allreduce of 1 MiB; NCCL's model 6.3%), NCCL's choice 3.7% (5.9%), from
  // 128 MiB 2.2% (3.7%); calls issued from Python 3.9% (6.5%). Scored again after the GPUs'
  // measured kernel costs (tests/data/real/h200-4gpu-nccl-small) went in: 4.3% (largest 71%),
  // 3.9%, 2.2%, from Python 4.0%: no better on this sweep. With the blocks' per-operation rates
  // and their queue for the GPU's memory (2026-11-27): NCCL's choice 4.0%.
  const GraphErrors e = graph_errors("h200-4gpu-nccl-graph2");
  ASSERT_EQ(e.sim.size(), 377u);
  EXPECT_LT(geomean_abs(e.sim), 0.045);
  EXPECT_LT(geomean_abs(e.sim_default), 0.041);
  EXPECT_LT(geomean_abs(e.large), 0.025);
  EXPECT_LT(geomean_abs(e.sim), geomean_abs(e.nccl));
  EXPECT_LT(geomean_abs(e.sim_default), geomean_abs(e.nccl_default));
  EXPECT_LT(geomean_abs(e.large), geomean_abs(e.large_nccl));
}

TEST(SimReal, HeldOutSweepWithTheHostsIssueTimeOnTwoH200s) {
  SKIP_ACCURACY_UNDER_ASAN();
  REQUIRE_NCCL_RECORDING("h200-2gpu-nccl-eager");
  REQUIRE_NCCL_RECORDING("h200-2gpu-nccl-eager2");
  // tools/record/run_nccl.sh once more on 2 x H200 (2026-11-30), the sweep of h200-2gpu-nccl and
  // -nccl-graph (every collective of 1 MiB-4 GiB in NCCL's choice and every forced algorithm and
  // protocol, issued from Python and replayed from CUDA graphs) now that nccl_bench.py records
  // the host's time to issue each call (issue_us, 29-65 us a call at 1 MiB on this machine).
  // Recorded after every rule of the simulator, kept out of every decision, scored once: the 377
  // calls issued from Python 2.2% geometric-mean |error|, 6 past 20% (NCCL's model 23.6%), where
  // the first sweep's 377, whose host was not timed and which wait for the node's
  // collective_call_us, give 5.3% and 90 past 20%. The six are the graph rows' own misses
  // (ring/LL128 reduce-scatter of 32-64 MiB 23% fast, tree/Simple allreduce of 4-16 MiB 22% slow,
  // tree/LL128 of 8 MiB 23% fast). The CUDA-graph rows: 3.8%, 15 past 20% (NCCL's model 19.8%).
  // The same script on another machine of the kind, minutes later (h200-2gpu-nccl-eager2, other
  // GPUs, host 28-61 us a call at 1 MiB), also scored once: from Python 2.3%, 6 past 20% (the
  // same misses, and the tree allreduce of 4-8 MiB 21-26% slow); graph rows 3.5%, 13 past 20%.
  for (const auto& [name, bound] :
       {std::pair{"h200-2gpu-nccl-eager", 0.025}, std::pair{"h200-2gpu-nccl-eager2", 0.026}}) {
    std::vector<double> eager, eager_nccl;
    for (const auto& c : cases(name, launched(Launches::eager_only))) {
      eager.push_back(c.error());
      eager_nccl.push_back(c.baseline_error());
    }
    ASSERT_EQ(eager.size(), 377u) << name;
    EXPECT_LT(geomean_abs(eager), bound) << name;
    EXPECT_LE(count_past(eager, 0.2), 6u) << name;
    EXPECT_LT(geomean_abs(eager), geomean_abs(eager_nccl) / 5) << name;
  }
  const GraphErrors e = graph_errors("h200-2gpu-nccl-eager");
  ASSERT_EQ(e.sim.size(), 377u);
  EXPECT_LT(geomean_abs(e.sim), 0.04);
  EXPECT_LE(count_past(e.sim, 0.2), 15u);
  EXPECT_LT(geomean_abs(e.sim), geomean_abs(e.nccl));
}

/// The |errors| of the alltoalls of `min_bytes`..`max_bytes` that recording `name` replayed from
/// CUDA graphs; printed with their mean and largest, so that the figures the comments cite are
/// the test's own.
std::vector<double> graph_alltoall_errors(const std::string& name, std::uint64_t min_bytes,
                                          std::uint64_t max_bytes) {
  std::vector<double> e;
  CallSelection alltoalls = launched(Launches::graph_only);
  alltoalls.collective = "alltoall";
  alltoalls.min_bytes = min_bytes;
  alltoalls.max_bytes = max_bytes;
  for (const auto& c : cases(name, alltoalls)) e.push_back(std::fabs(c.error()));
  EXPECT_FALSE(e.empty()) << name;
  std::cout << name << ": alltoalls of " << min_bytes << "-" << max_bytes << " B, mean |error| "
            << mean_abs(e) << ", largest " << largest_abs(e) << "\n";
  return e;
}

TEST(SimReal, AnAlltoallOfAFewBytesCostsTheSendReceiveKernelsCall) {
  // An alltoall is NCCL's send/receive kernel. Its calls of 8 B-2 KiB from CUDA graphs took a
  // median 10.10 us on 4 x H200 (h200-4gpu-nccl-small), 2.1 us above the LL kernel's per-call cost
  // (nccl_ll_call_us 7.0, step 1.0): nccl_p2p_call_us 9.1 (python3 tools/results/nccl_p2p_call.py).
  // Held out and scored once: the same calls on 2 x H200 (h200-2gpu-p2p-small, one peer a rank
  // where 4 GPUs have three: the kernel costs the same), mean |error| 3.1% (about 21% with the LL
  // collectives' cost, 8.0-8.3 us simulated); on another 4 x H200 machine (h200-4gpu-nccl-small2,
  // whose calls ran 1.8 us slower than the first's) 14.5%. The calls it was taken from: 5.4%.
  for (const auto& [name, bound] : {std::pair{"h200-2gpu-p2p-small", 0.05},
                                    {"h200-4gpu-nccl-small2", 0.16},
                                    {"h200-4gpu-nccl-small", 0.06}})
    EXPECT_LT(mean_abs(graph_alltoall_errors(name, 0, 2048)), bound) << name;
}

TEST(SimReal, AlltoallsOfUpTo512KiBAPeerRunInLlOnEveryP2pChannel) {
  // NCCL runs a send in LL while it carries at most nChannelsMax (the p2p channels a peer may use,
  // 32 on these machines) x P2P_LL_THRESHOLD (16 KiB) = 512 KiB, cut in parts of 8 KiB (its LL
  // step / 8) over up to 16 (2 ranks) or 8 (4 ranks) channels a peer, whatever the call's size
  // (addP2pToPlan, scheduleP2pTasksToPlan, NCCL 2.28.9). The simulator had taken the threshold as
  // the send's own channels x 16 KiB (Simple from 128 KiB a peer on 2 ranks, 32 KiB on 4) and
  // thinned a small alltoall's channels as getAlgoInfo thins a collective's. Read from NCCL's
  // source, no value fitted. The CUDA-graph alltoalls of 8 KiB-2 MiB of every folder recorded
  // before the change: geometric mean 11.3% (43 past 20%) before, 4.0% (2) after
  // (tools/results/validation_diff.py --min-bytes 8192 --max-bytes 2097152 --case alltoall on the
  // CSVs of tools/results/collectives_all.sh). Held out, recorded after the change and scored
  // once: h200-2gpu-nccl-issue3, 13.6% (8 past 20%) with the starting build's CSV, 6.3% (none).
  // Bounds: each folder's mean and largest |error| as this test prints them, with some room.
  const struct {
    const char* name;
    double mean, largest;
  } folders[] = {{"h200-4gpu-nccl-small", 0.06, 0.15},  {"h200-4gpu-nccl-graph", 0.09, 0.15},
                 {"h200-4gpu-nccl-graph2", 0.05, 0.10}, {"h200-2gpu-nccl-issue2", 0.06, 0.22},
                 {"h200-2gpu-nccl-issue", 0.08, 0.21},  {"h200-2gpu-nccl-graph2", 0.08, 0.18},
                 {"h200-4gpu-nccl-small2", 0.16, 0.21}, {"h200-2gpu-nccl-issue3", 0.10, 0.20}};
  for (const auto& f : folders) {
    const std::vector<double> e = graph_alltoall_errors(f.name, 8192, 2 * kMiB);
    EXPECT_LT(mean_abs(e), f.mean) << f.name;
    EXPECT_LT(largest_abs(e), f.largest) << f.name;
  }
}

TEST(SimReal, CallsIssuedFromPythonWaitForTheHostsRecordedIssueTime) {
  // 2 x H200 (h200-2gpu-nccl-issue, tools/record/run_nccl_issue.sh): every collective of 8 B to
  // 32 MiB issued from Python, 20 calls a loop, with the host's time to issue each call recorded
  // beside the GPU time (issue_us, 25-77 us, varying by variant and size). Where the GPU work is
  // shorter, the loop takes the host's pace: the 219 eager rows whose issue_us exceeds their CUDA
  // graph twin's time took 7.0-41.5 us from the graph and 25.5-80.1 us here. With each loop's
  // recorded issue time the 252 eager calls come to a geometric mean |error| of 2.1%, 3 cases past
  // 20% (the GPU-bound LL128 reduce-scatter and ring/LL allreduce of 32 MiB, the tree allreduce of
  // 8 MiB, whose graph twins miss as much); with the node's collective_call_us (18.4 us, another
  // session's) 33.8% and 218 past 20%. The same script on another machine of the kind
  // (h200-2gpu-nccl-issue2, host 25-71 us a call): 1.5%, 2 past 20% (31.5% and 215 with the node's
  // value). Each scored once, no value taken from either.
  const auto eager_errors = [](const std::string& name) {
    std::vector<double> errors;
    for (const auto& c : cases(name, launched(Launches::eager_only))) errors.push_back(c.error());
    return errors;
  };
  const std::vector<double> first = eager_errors("h200-2gpu-nccl-issue");
  ASSERT_EQ(first.size(), 252U);
  EXPECT_LT(geomean_abs(first), 0.03);
  EXPECT_LE(count_past(first, 0.2), 3U);
  const std::vector<double> second = eager_errors("h200-2gpu-nccl-issue2");
  ASSERT_EQ(second.size(), 252U);
  EXPECT_LT(geomean_abs(second), 0.025);
  EXPECT_LE(count_past(second, 0.2), 2U);
}

TEST(SimReal, EagerLoopsWithoutIssueTimeTakeTheirSmallCallsPace) {
  // The three 2 x H200 sessions that recorded the host's time per call (h200-2gpu-nccl-issue,
  // -issue2, -issue3: every collective of 8 B-32 MiB in five variants, issued from Python) with
  // issue_us taken away, as the recordings before 2026-11-28 hold them: each loop of 1-32 MiB then
  // waits for the median time of the same variant's and collective's calls of up to 64 KiB (a
  // pace the recording measured; nothing fitted). Its 189 calls from 1 MiB: geometric mean |error|
  // 3.6%, 15 past 20%, against 9.6% and 78 past 20% with the node's collective_call_us and 2.2%
  // and 6 with the recorded issue_us (scored once, 2026-11-30).
  // Held out again: a fourth session recorded after the rule (h200-2gpu-nccl-issue4, 2026-11-30),
  // scored once: 3.8%, 4 past 20% (node's value 10.0%, 24; issue_us 1.9%, 2).
  std::vector<double> small_calls, recorded, fourth, fourth_recorded;
  const topology::Node node = topology::load_node(test::config("testbed-h200-2gpu.yaml"));
  CallSelection eager = launched(Launches::eager_only);
  eager.min_bytes = kMiB;
  for (const std::string session : {"issue", "issue2", "issue3", "issue4"}) {
    const std::string name = "h200-2gpu-nccl-" + session;
    std::ifstream in(machine(name) + "/nccl_bench.csv");
    std::string header, line, rows;
    ASSERT_TRUE(std::getline(in, header)) << name;
    ASSERT_TRUE(header.ends_with(",issue_us")) << header;
    while (std::getline(in, line)) rows += line.substr(0, line.rfind(',')) + "\n";
    const std::string stripped = nccl_bench_folder("no_issue_" + session, rows);
    for (const auto& c : validate_collectives(stripped, node, eager)) {
      EXPECT_EQ(c.pace, HostPace::small_calls) << name << " " << c.name << " " << c.bytes;
      (session == "issue4" ? fourth : small_calls).push_back(c.error());
    }
    for (const auto& c : validate_collectives(machine(name), node, eager))
      (session == "issue4" ? fourth_recorded : recorded).push_back(c.error());
  }
  ASSERT_EQ(fourth.size(), 63U);
  EXPECT_LT(geomean_abs(fourth), 0.045);
  EXPECT_LE(count_past(fourth, 0.2), 4U);
  ASSERT_EQ(fourth_recorded.size(), 63U);
  EXPECT_LT(geomean_abs(fourth_recorded), 0.025);
  EXPECT_LE(count_past(fourth_recorded, 0.2), 2U);
  ASSERT_EQ(small_calls.size(), 189U);
  ASSERT_EQ(recorded.size(), 189U);
  EXPECT_LT(geomean_abs(small_calls), 0.04);
  EXPECT_LE(count_past(small_calls, 0.2), 15U);
  EXPECT_LT(geomean_abs(recorded), geomean_abs(small_calls));
}

TEST(SimReal, SmallRingSimpleCallsOnTwoGpusStayWithinTheirHeldOutScore) {
  // 2 x H200 (h200-2gpu-burst, tools/record/run_nccl_burst.sh, held out and scored once):
  // ring/Simple all-gather, reduce-scatter and broadcast of 8 B to 8 MiB replayed from CUDA graphs,
  // 33 calls. Geometric mean |error| 12.4%, 12 past 20%, every one simulated fast: on 2 GPUs the
  // all-gather and reduce-scatter of 8 B-2 KiB take 16-18 us where the simulator's call and step
  // costs, measured on 4 GPUs, give 13.6 us (README, "Each call of a burst"). The in-place rows
  // (ring_simple_inplace) are not simulated. Bounds: within 2 points of the scored figure, no
  // more misses past 20%, and none simulated slow by more than 10%: a change that closes the gap
  // lowers them.
  std::vector<double> errors;
  for (const auto& c : cases("h200-2gpu-burst"))
    if (c.group.starts_with("nccl/")) errors.push_back(c.error());
  ASSERT_EQ(errors.size(), 33U);
  EXPECT_LT(geomean_abs(errors), 0.145);
  EXPECT_LE(count_past(errors, 0.2), 12U);
  EXPECT_LT(*std::max_element(errors.begin(), errors.end()), 0.10);
}

}  // namespace
}  // namespace linkcast::sim
