// How NCCL runs a communicator on a node, for the simulator: the rings its topology search
// would build (src/graph/search.cc, approximated below), the graph its tuning prices, and what
// each protocol costs a transfer.
//
// Ring search, as NCCL does it on one node: every link has NCCL's nominal bandwidth
// (src/graph/topo.h: NVLink 18/20/20/20.6/40.1 GB/s per link for SM60/70/80/90/100, PCIe
// width x per-lane rate, CPU interconnects QPI 6, UPI 10, POWER9 X-Bus 32, Infinity Fabric 16).
// At a per-channel speed s from NCCL's speed table, channels are added one ring at a time (the
// previous ring replayed first, else a depth-first search over the GPUs) while every link the
// ring's routes cross keeps s of bandwidth per crossing; speeds are tried from the highest that
// fits down to half the best found, keeping the most channels x speed (at most 16 channels).
// Then ncclTopoDupChannels doubles the channels and halves the speed when s >= 25 GB/s
// (Hopper+: unless s < 50 with more than 4 channels), and ncclTopoPostset doubles the channels
// the communicator runs (at most 32). NCCL's tuning prices the graph (channels x speed); the
// communicator's channels carry the data.
#pragma once

#include <cstdint>
#include <vector>

#include "model/link.hpp"
#include "nccl/tuning.hpp"
#include "topology/routing.hpp"

namespace linkcast::nccl {

/// NCCL's nominal bandwidth of one link (all its bricks), GB/s per direction.
double nccl_link_gbps(const model::LinkSpec& link);

struct CommTopology {
  std::vector<int> gpus;  // node endpoint of each rank, in communicator rank order
  /// Distinct ring orders (positions into `gpus`) and how many of the communicator's channels
  /// run each; channel c runs ring ring_of_channel[c].
  std::vector<std::vector<int>> rings;
  std::vector<int> ring_of_channel;
  Graph graph;  // what NCCL's tuning prices
  int channels() const { return static_cast<int>(ring_of_channel.size()); }
};

/// NCCL's view of a communicator over `gpus` (node endpoint indices, rank order).
CommTopology search_rings(const topology::Node& node, const topology::Routes& routes,
                          const std::vector<int>& gpus);

/// What one transfer of a collective costs under a protocol.
struct ProtocolCost {
  double wire_factor = 1;      // wire bytes per data byte on top of the links' packet overhead
  double channel_cap_gbps = 0;  // each channel's data rate ceiling (NCCL's per-protocol busBw
                               // spread over the communicator's channels); 0: none
  double step_latency_ns = 0;   // each step's handshake (NCCL's hwLat)
  double base_latency_ns = 0;   // once per call and rank (NCCL's baseLat)
  std::uint64_t chunk_bytes = 0;  // data per chunk; 0: the decomposition's default (Simple)
};
/// `channels`: the communicator's channel count the call's ranks run (0: topo.channels()).
ProtocolCost protocol_cost(trace::OpKind kind, int nranks, CollAlgo algo, Proto proto,
                           const CommTopology& topo, int channels = 0);

}  // namespace linkcast::nccl
