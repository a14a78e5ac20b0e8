// NCCL's own cost model (src/graph/tuning.cc as of NCCL 2.23-2.28; the ground truth in
// tests/data/real ran 2.28.9, whose logged tuning table this reproduces), the `nccl-model` baseline: every
// collective the simulator runs is also priced the way NCCL prices it when it picks an algorithm
// and protocol, time = latency + bytes / bandwidth, with
//   latency   = baseLat[algo][proto] + steps * hwLat[link][algo][proto]   (ring)
//             = baseLat + 2 (n - 1) hwLat                                  (tree, one node)
//   bandwidth = channels * per-channel bandwidth of NCCL's topology search, refined per
//               protocol (LL: x1/2 and a per-arch ceiling; LL128: x0.92 and a per-channel
//               ceiling; tree: x0.92, per-channel ceiling, /3.8 for LL, x7/9 for LL128, a
//               correction factor by size), then converted from bus to algorithm bandwidth
//               (ring: n / steps; tree: 1/2).
// Single node only (what linkcast simulates): no network latencies, no CollNet/NVLS/PAT.
// The constants are NCCL's, re-typed into one table below with what each row means.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nccl/collectives.hpp"
#include "trace/trace.hpp"

namespace linkcast::nccl {


/// What NCCL's topology search hands its tuning: the ring graph of one node.
struct Graph {
  int channels = 1;                   // graph->nChannels
  double bw_per_channel_gbps = 0;     // graph->bwIntra
  bool nvlink = true;                 // graph->typeIntra is NVLink (or NVSwitch), else PCI
  int compute_capability = 80;        // 70 Volta, 80 Ampere, 90 Hopper, 100 Blackwell
};

/// ncclTopoPostset: the communicator runs the graph's channels twice over, at most MAXCHANNELS
/// (the 2- and 4-GPU H200 logs: a graph of 12 channels, "24 coll channels").
[[nodiscard]] int communicator_channels(const Graph& g);

/// One priced (algorithm, protocol).
struct Estimate {
  CollAlgo algo = CollAlgo::ring;
  Proto proto = Proto::simple;
  double latency_ns = 0;
  double algbw_gbps = 0;  // bytes / (time - latency)
  double time_ns = 0;
  bool available = false;
};

/// The bus bandwidth NCCL's tuning gives (algo, proto) before the bus-to-algorithm conversion,
/// GB/s; 0 when NCCL disables the pair for this collective on this graph.
double bus_bandwidth_gbps(trace::OpKind kind, int nranks, CollAlgo algo, Proto proto, const Graph& g);

/// NCCL's time for one call (ncclTopoGetAlgoTime): unavailable pairs come back with
/// available == false. `bytes` as nccl-tests counts them. Alltoall is not a NCCL collective
/// (nccl-tests issues grouped send/recv); it is priced as n-1 sends of bytes/n over the ring
/// graph's bandwidth behind one ring/Simple base latency, and marked so in docs/simulate.md.
Estimate estimate(trace::OpKind kind, int nranks, std::uint64_t bytes, CollAlgo algo, Proto proto,
                  const Graph& g);

/// NCCL's choice: the fastest available (algo, proto) (getAlgoInfo), or the best under the
/// constraints given. Alltoall (sends and receives) ignores the constraints: its protocol is
/// LL or Simple by size (alltoall_sends_ll), as NCCL sets it.
Estimate choose(trace::OpKind kind, int nranks, std::uint64_t bytes, const Graph& g,
                std::optional<CollAlgo> algo = std::nullopt, std::optional<Proto> proto = std::nullopt);

/// NCCL's per-step latency hwLat[link][algo][proto] and per-call baseLat[algo][proto], ns.
double step_latency_ns(CollAlgo algo, Proto proto, bool nvlink);
double base_latency_ns(CollAlgo algo, Proto proto);

/// Compute capability index NCCL's tables use from the NVLink generation of the GPUs
/// (1 Pascal 60, 2 Volta 70, 3 Ampere 80, 4 Hopper 90, 5 Blackwell 100); 80 when unknown.
int compute_capability_of_nvlink(int version);

/// Slots of a connection's NCCL_STEPS that one chunk of a call takes in its receiver's buffer
/// until the receiver frees it: a Simple ring chunk advances the connection's step counter by its
/// chunk steps (chunk / stepSize, whatever its bytes: ALLREDUCE/ALLGATHER/REDUCESCATTER_CHUNKSTEPS
/// 4, BROADCAST/REDUCE_CHUNKSTEPS 1, src/include/collectives.h), every other chunk (LL, LL128,
/// tree, alltoall's sends of one P2P chunk) by one step. A sender waits while its chunks in flight
/// would pass NCCL_STEPS (the primitives' waitPeer on the receiver's head). At most NCCL_STEPS / 2:
/// a chunk larger than the default buffer's half is a larger buffer's (NCCL_BUFFSIZE).
[[nodiscard]] int chunk_slots(CollAlgo algo, Proto proto, trace::OpKind kind, std::uint64_t chunk_bytes);

}  // namespace linkcast::nccl
