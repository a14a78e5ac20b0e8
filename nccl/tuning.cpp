#include "nccl/tuning.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/strings.hpp"

namespace linkcast::nccl {

using trace::OpKind;

namespace {

// --- NCCL's calibration constants (src/graph/tuning.cc) -------------------------------------
// Index [algo] is [tree, ring] (NCCL_ALGO_TREE = 0, NCCL_ALGO_RING = 1); [proto] is
// [LL, LL128, Simple].
constexpr int idx(CollAlgo a) { return a == CollAlgo::tree ? 0 : 1; }
constexpr int idx(Proto p) { return static_cast<int>(p); }

// baseLat: fixed cost of one call per algorithm and protocol (kernel launch, setup), us.
constexpr double kBaseLatUs[2][3] = {
    {6.8, 14.0, 8.4},  // tree
    {6.6, 14.0, 8.4},  // ring
};
// hwLat[NVLINK]: cost of one algorithm step between two GPUs over NVLink (handshake, fences), us.
constexpr double kNvlinkStepUs[2][3] = {
    {0.6, 1.25, 4.0},  // tree
    {0.6, 1.9, 3.4},   // ring
};
// hwLat[PCI]: the same over PCIe, us.
constexpr double kPciStepUs[2][3] = {
    {1.0, 1.9, 4.0},  // tree
    {1.0, 2.5, 5.7},  // ring
};
// Per-architecture ceilings, GB/s, one node (the N1 column of NCCL's N1/N2/N4 tables), rows
// by compute capability: Volta, Ampere, Hopper, Blackwell (2x Hopper's).
constexpr double kLlMaxBw[4] = {39.0, 87.7, 141.0, 282.0};               // llMaxBws: LL, whole call
constexpr double kPerChMaxRingLl128Bw[4] = {20.0, 20.0, 36.7, 73.4};     // LL128 ring, per channel
constexpr double kPerChMaxTreeLl128Bw[4] = {20.0, 20.0, 36.7, 73.4};     // LL128 tree, per channel
constexpr double kPerChMaxTreeBw[4] = {26.5, 24.0, 38.7, 77.4};          // tree, per channel
// Ring/LL: half the bus bandwidth (8-byte lines carry 4 bytes of data), at most llMaxBw.
constexpr double kRingLlFactor = 0.5;
// Ring/LL128 moves 120 B of data per 128 B line; NCCL charges 0.92 ("120.0/128.0").
constexpr double kLl128RingFactor = 0.92;
// Tree refinements: x0.92 overall; LL /3.8; LL128 x7/9 on one node.
constexpr double kTreeFactor = 0.92;
constexpr double kTreeLlDivisor = 3.8;
constexpr double kTreeLl128Factor = 7.0 / 9.0;
// treeCorrectionFactor[proto][log2(bytes / 64)]: trees fall short of the model at medium sizes.
constexpr double kTreeCorrection[3][23] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0},
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9},
};

int arch_row(int cc) { return cc >= 100 ? 3 : cc >= 90 ? 2 : cc >= 80 ? 1 : 0; }

/// NCCL's nsteps per collective for the ring (allreduce 2(n-1); allgather and reducescatter
/// n-1; broadcast and reduce n).
int ring_steps(OpKind kind, int n) {
  switch (kind) {
    case OpKind::allreduce: return 2 * (n - 1);
    case OpKind::allgather:
    case OpKind::reducescatter: return n - 1;
    default: return n;
  }
}

bool tree_supported(OpKind kind) { return kind == OpKind::allreduce; }

int log2i(std::uint64_t v) {
  int l = -1;
  while (v) {
    v >>= 1;
    ++l;
  }
  return l;
}

}  // namespace

std::string_view to_string(Proto p) {
  switch (p) {
    case Proto::ll: return "LL";
    case Proto::ll128: return "LL128";
    case Proto::simple: return "Simple";
  }
  return "Simple";
}

std::optional<Proto> parse_proto(std::string_view name) {
  const std::string lower = to_lower(name);
  if (lower == "ll") return Proto::ll;
  if (lower == "ll128") return Proto::ll128;
  if (lower == "simple") return Proto::simple;
  return std::nullopt;
}

std::vector<std::string> proto_names() { return {"LL", "LL128", "Simple"}; }

int compute_capability_of_nvlink(int version) {
  switch (version) {
    case 1: return 60;
    case 2: return 70;
    case 3: return 80;
    case 4: return 90;
    case 5: return 100;
    default: return 80;
  }
}

double step_latency_ns(CollAlgo algo, Proto proto, bool nvlink) {
  return 1000.0 * (nvlink ? kNvlinkStepUs : kPciStepUs)[idx(algo)][idx(proto)];
}

double base_latency_ns(CollAlgo algo, Proto proto) { return 1000.0 * kBaseLatUs[idx(algo)][idx(proto)]; }

double bus_bandwidth_gbps(OpKind kind, int nranks, CollAlgo algo, Proto proto, const Graph& g) {
  if (nranks < 2) return 0;
  if (algo == CollAlgo::tree && !tree_supported(kind)) return 0;
  // LL128 only where NCCL enables it by default: NVLink within the node on Volta, Ampere or
  // Hopper (and later, as 2.21 does for 100).
  if (proto == Proto::ll128 && (!g.nvlink || g.compute_capability < 70)) return 0;
  const int row = arch_row(g.compute_capability);
  double bus = g.channels * g.bw_per_channel_gbps;
  if (algo == CollAlgo::ring) {
    if (proto == Proto::ll) bus = std::min(kLlMaxBw[row], bus * kRingLlFactor);
    if (proto == Proto::ll128) bus = std::min(bus * kLl128RingFactor, g.channels * kPerChMaxRingLl128Bw[row]);
  } else {
    bus = std::min(bus * kTreeFactor, g.channels * kPerChMaxTreeBw[row]);
    if (proto == Proto::ll) bus = std::min(bus / kTreeLlDivisor, kLlMaxBw[row]);
    if (proto == Proto::ll128) bus = std::min(bus * kTreeLl128Factor, g.channels * kPerChMaxTreeLl128Bw[row]);
  }
  return bus;
}

Estimate estimate(OpKind kind, int nranks, std::uint64_t bytes, CollAlgo algo, Proto proto, const Graph& g) {
  Estimate e;
  e.algo = algo;
  e.proto = proto;
  if (nranks < 2) {
    e.available = algo == CollAlgo::ring;
    return e;
  }
  const bool alltoall = kind == OpKind::alltoall;
  const OpKind priced = alltoall ? OpKind::allgather : kind;  // n-1 steps of bytes/n each
  double bus = bus_bandwidth_gbps(priced, nranks, algo, proto, g);
  if (!(bus > 0)) return e;
  const int n = nranks;
  double algbw, latency_us = kBaseLatUs[idx(algo)][idx(proto)];
  const double hw = (g.nvlink ? kNvlinkStepUs : kPciStepUs)[idx(algo)][idx(proto)];
  if (algo == CollAlgo::ring) {
    const int steps = ring_steps(priced, n);
    algbw = bus * n / steps;
    // Broadcast and reduce on replicated (same) channels pay one step of latency; the others one
    // per step (no inter-node steps on one node).
    latency_us += (kind == OpKind::broadcast || kind == OpKind::reduce) ? hw : steps * hw;
  } else {
    algbw = bus * 0.5;
    latency_us += 2.0 * (n - 1) * hw;
    const int log_size = log2i(bytes >> 6);
    if (log_size >= 0 && log_size < 23) algbw *= kTreeCorrection[idx(proto)][log_size];
  }
  e.available = true;
  e.latency_ns = latency_us * 1000.0;
  e.algbw_gbps = algbw;
  e.time_ns = e.latency_ns + static_cast<double>(bytes) / algbw;
  return e;
}

int communicator_channels(const Graph& g) { return std::min(2 * g.channels, nccl::kMaxChannels); }

Estimate choose(OpKind kind, int nranks, std::uint64_t bytes, const Graph& g, std::optional<CollAlgo> algo,
                std::optional<Proto> proto) {
  if (kind == OpKind::alltoall) {
    // Sends and receives: NCCL sets their protocol by size, whatever NCCL_ALGO or NCCL_PROTO say,
    // on the communicator's p2p channels.
    const Proto p2p = alltoall_sends_ll(nranks, bytes, communicator_channels(g)) ? Proto::ll : Proto::simple;
    return estimate(kind, nranks, bytes, CollAlgo::ring, p2p, g);
  }
  Estimate best;
  for (CollAlgo a : {CollAlgo::tree, CollAlgo::ring}) {
    if (algo && *algo != a) continue;
    for (Proto p : {Proto::ll, Proto::ll128, Proto::simple}) {
      if (proto && *proto != p) continue;
      const Estimate e = estimate(kind, nranks, bytes, a, p, g);
      if (e.available && (!best.available || e.time_ns < best.time_ns)) best = e;
    }
  }
  return best;
}

int chunk_slots(CollAlgo algo, Proto proto, trace::OpKind kind, std::uint64_t chunk_bytes) {
  if (proto != Proto::simple || algo != CollAlgo::ring || kind == trace::OpKind::alltoall) return 1;
  const std::uint64_t steps = (chunk_bytes + nccl::kStepBytes - 1) / nccl::kStepBytes;
  // NCCL's ring chunk is at most half its buffer (chunkSteps <= NCCL_STEPS / 2): a chunk given
  // larger than the default buffer's half is a larger buffer's (NCCL_BUFFSIZE scales stepSize).
  return static_cast<int>(std::clamp<std::uint64_t>(steps, 1, nccl::kSteps / 2));
}

}  // namespace linkcast::nccl
