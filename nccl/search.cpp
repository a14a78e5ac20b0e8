#include "nccl/search.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace linkcast::nccl {

using model::LinkType;

namespace {

// NCCL's per-channel speed tables (src/graph/search.cc: speedArrayIntra, sm90SpeedArrayIntra),
// GB/s, tried from the highest down.
constexpr std::array<double, 13> kSpeeds = {40.0, 30.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0, 7.0, 6.0, 5.0, 4.0, 3.0};
constexpr std::array<double, 11> kSm90Speeds = {60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0};
// Ring graphs search at most MAXCHANNELS/2 channels; communicators run at most MAXCHANNELS.
constexpr int kGraphMaxChannels = nccl::kMaxChannels / 2;
// A depth-first search gives up after this many extensions per ring (NCCL times out too).
constexpr int kSearchBudget = 200000;
constexpr double kEps = 1e-6;

// Chunk data per protocol (src/enqueue.cc, computeColl; buffer sizes from src/include/device.h):
// LL: 512 KiB buffer / 8 steps = 64 KiB per step, half of it data (8-byte lines carry 4 bytes);
// LL128: 4800 KiB / 8 = 600 KiB per step, 120 of every 128 bytes data.
constexpr std::uint64_t kLlChunkBytes = nccl::kLlStepBytes / 2;
constexpr std::uint64_t kLl128ChunkBytes = (std::uint64_t{120} * nccl::kLl128MaxThreads * 8 * 8 / 8) / 128 * 120;
// An LL128 step is shared by the warps of the channel's block (20 warps), each storing and
// polling its own 128-byte lines, whose flags let the next rank take every line as it lands: a
// rank forwards a warp's share, not the whole step, so a call moves along a ring or chain in
// pieces of a step / 20 (28.1 KiB of data).
constexpr std::uint64_t kLl128Warps = nccl::kLl128MaxThreads / nccl::kWarpSize;

int dl_index(const topology::DirectedLink& dl) { return dl.link * 2 + (dl.forward ? 0 : 1); }

struct Search {
  const topology::Node& node;
  const topology::Routes& routes;
  const std::vector<int>& gpus;
  std::vector<double> remaining;  // by directed link
  int budget = 0;

  const topology::Path& path(int a, int b) const {
    return routes.path(gpus[static_cast<std::size_t>(a)], gpus[static_cast<std::size_t>(b)]);
  }
  bool fits(int a, int b, double s) const {
    for (const auto& dl : path(a, b).links)
      if (remaining[static_cast<std::size_t>(dl_index(dl))] < s - kEps) return false;
    return true;
  }
  void use(int a, int b, double s) {
    for (const auto& dl : path(a, b).links) remaining[static_cast<std::size_t>(dl_index(dl))] -= s;
  }
  /// Tries `ring`; consumes its bandwidth when every edge fits, in order (edges sharing a link
  /// see each other's use).
  bool take(const std::vector<int>& ring, double s) {
    const std::size_t n = ring.size();
    std::size_t k = 0;
    for (; k < n; ++k) {
      const int a = ring[k], b = ring[(k + 1) % n];
      if (!fits(a, b, s)) break;
      use(a, b, s);
    }
    if (k == n) return true;
    for (std::size_t j = 0; j < k; ++j) use(ring[j], ring[(j + 1) % n], -s);
    return false;
  }
  /// Depth-first: extend `ring` with unused ranks, best paths first; closes back to rank 0.
  bool extend(std::vector<int>& ring, std::vector<char>& used, double s) {
    const int n = static_cast<int>(gpus.size());
    if (--budget < 0) return false;
    const int last = ring.back();
    if (static_cast<int>(ring.size()) == n) {
      if (!fits(last, ring.front(), s)) return false;
      use(last, ring.front(), s);
      return true;
    }
    std::vector<int> next;
    for (int i = 1; i < n; ++i) {
      const int g = (last + i) % n;
      if (!used[static_cast<std::size_t>(g)]) next.push_back(g);
    }
    std::stable_sort(next.begin(), next.end(), [&](int a, int b) {
      const auto& pa = path(last, a);
      const auto& pb = path(last, b);
      if (pa.bottleneck_gbps != pb.bottleneck_gbps) return pa.bottleneck_gbps > pb.bottleneck_gbps;
      return pa.hops < pb.hops;
    });
    for (int g : next) {
      if (!fits(last, g, s)) continue;
      use(last, g, s);
      used[static_cast<std::size_t>(g)] = 1;
      ring.push_back(g);
      if (extend(ring, used, s)) return true;
      ring.pop_back();
      used[static_cast<std::size_t>(g)] = 0;
      use(last, g, -s);
    }
    return false;
  }
  /// Rings at speed s: the previous ring replayed, else a search; at most kGraphMaxChannels.
  std::vector<std::vector<int>> rings_at(double s) {
    remaining.assign(node.links.size() * 2, 0.0);
    for (std::size_t l = 0; l < node.links.size(); ++l)
      remaining[2 * l] = remaining[2 * l + 1] = nccl_link_gbps(node.links[l].spec);
    std::vector<std::vector<int>> rings;
    std::vector<int> identity(gpus.size());
    for (std::size_t i = 0; i < identity.size(); ++i) identity[i] = static_cast<int>(i);
    while (static_cast<int>(rings.size()) < kGraphMaxChannels) {
      if (!rings.empty() && take(rings.back(), s)) {
        rings.push_back(rings.back());
        continue;
      }
      // NCCL tries the PCI order first, then searches.
      if (rings.empty() && take(identity, s)) {
        rings.push_back(identity);
        continue;
      }
      std::vector<int> ring = {0};
      std::vector<char> used(gpus.size(), 0);
      used[0] = 1;
      budget = kSearchBudget;
      if (!extend(ring, used, s)) break;
      rings.push_back(ring);
    }
    return rings;
  }
};

}  // namespace

double nccl_link_gbps(const model::LinkSpec& link) {
  switch (link.type) {
    case LinkType::nvlink: {
      // src/graph/topo.h: SM60_NVLINK_BW 18, SM70 20, SM80 20, SM90 20.6, SM100 40.1 per link.
      static constexpr std::array<double, 6> kPerLink = {0, 18.0, 20.0, 20.0, 20.6, 40.1};
      const int v = std::clamp(link.nvlink.version, 1, 5);
      return kPerLink[static_cast<std::size_t>(v)] * link.nvlink.count;
    }
    case LinkType::pcie: {
      // src/graph/topo.cc: width x per-lane speed (x100 Mb/s: 15, 30, 60, 120, 240, 480 for
      // 2.5..64 GT/s) / 80: PCI_BW 12 for Gen3 x16.
      static constexpr std::array<double, 7> kLane = {0, 15, 30, 60, 120, 240, 480};
      return link.pcie.lanes * kLane[static_cast<std::size_t>(std::clamp(link.pcie.gen, 1, 6))] / 80.0;
    }
    case LinkType::qpi: return 6.0;               // QPI_BW
    case LinkType::upi: return 10.0;              // SKL_QPI_BW
    case LinkType::xbus: return 32.0;             // P9_BW
    case LinkType::infinity_fabric: return 16.0;  // AMD_BW
    case LinkType::hypertransport: return 6.0;    // as QPI
    default: return link.gbps();
  }
}

CommTopology search_rings(const topology::Node& node, const topology::Routes& routes, const std::vector<int>& gpus) {
  CommTopology topo;
  topo.gpus = gpus;
  const int n = static_cast<int>(gpus.size());
  // Compute capability from the GPUs' NVLink generation.
  int version = 0;
  for (const auto& l : node.links)
    if (l.spec.type == LinkType::nvlink && n > 0 && (l.a == gpus[0] || l.b == gpus[0]))
      version = std::max(version, l.spec.nvlink.version);
  topo.graph.compute_capability = compute_capability_of_nvlink(version);
  if (n < 2) {
    topo.rings = {std::vector<int>(static_cast<std::size_t>(n), 0)};
    topo.ring_of_channel = {0};
    topo.graph.channels = 1;
    topo.graph.bw_per_channel_gbps = 0;
    return topo;
  }
  Search search{node, routes, gpus, {}, 0};
  // maxBw: the best GPU-to-GPU path; totalBw: the most NVLink (else PCIe) bandwidth of a GPU.
  double max_bw = 0, total_bw = 0;
  for (int a = 0; a < n; ++a) {
    double nvl = 0, pci = 0;
    for (const auto& l : node.links) {
      if (l.a != gpus[static_cast<std::size_t>(a)] && l.b != gpus[static_cast<std::size_t>(a)]) continue;
      if (l.spec.type == LinkType::nvlink) nvl += nccl_link_gbps(l.spec);
      if (l.spec.type == LinkType::pcie) pci = std::max(pci, nccl_link_gbps(l.spec));
    }
    total_bw = std::max(total_bw, std::max(nvl, pci));
    for (int b = 0; b < n; ++b) {
      if (a == b) continue;
      double bw = std::numeric_limits<double>::infinity();
      for (const auto& dl : search.path(a, b).links)
        bw = std::min(bw, nccl_link_gbps(node.links[static_cast<std::size_t>(dl.link)].spec));
      if (std::isfinite(bw)) max_bw = std::max(max_bw, bw);
    }
  }
  const bool sm90 = topo.graph.compute_capability >= 90;
  const std::vector<double> speeds = sm90 ? std::vector<double>(kSm90Speeds.begin(), kSm90Speeds.end())
                                          : std::vector<double>(kSpeeds.begin(), kSpeeds.end());
  std::size_t i = 0;
  while (i + 1 < speeds.size() && (speeds[i] > max_bw + kEps || speeds[i] > total_bw + kEps)) ++i;
  std::vector<std::vector<int>> best;
  double best_speed = 0;
  for (; i < speeds.size(); ++i) {
    auto rings = search.rings_at(speeds[i]);
    if (static_cast<double>(rings.size()) * speeds[i] > static_cast<double>(best.size()) * best_speed + kEps) {
      best = std::move(rings);
      best_speed = speeds[i];
    }
    if (i + 1 >= speeds.size() || (!best.empty() && speeds[i + 1] / best_speed < 0.49)) break;
  }
  if (best.empty()) {
    // Slower than NCCL's slowest speed: one ring in rank order at what its narrowest link gives.
    std::vector<int> identity(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) identity[static_cast<std::size_t>(k)] = k;
    std::vector<int> uses(node.links.size() * 2, 0);
    for (int k = 0; k < n; ++k)
      for (const auto& dl : search.path(k, (k + 1) % n).links) ++uses[static_cast<std::size_t>(dl_index(dl))];
    double cap = std::numeric_limits<double>::infinity();
    for (std::size_t d = 0; d < uses.size(); ++d)
      if (uses[d] > 0) cap = std::min(cap, nccl_link_gbps(node.links[d / 2].spec) / uses[d]);
    best = {identity};
    best_speed = std::isfinite(cap) ? cap : 1.0;
  }
  // ncclTopoDupChannels.
  int graph_channels = static_cast<int>(best.size());
  double speed = best_speed;
  const bool dup = speed >= 25.0 && !(topo.graph.compute_capability > 80 && speed < 50.0 && graph_channels > 4);
  std::vector<std::vector<int>> graph_rings = best;
  if (dup) {
    const int doubled = std::min(graph_channels * 2, kGraphMaxChannels);
    for (int c = graph_channels; c < doubled; ++c) graph_rings.push_back(best[static_cast<std::size_t>(c - graph_channels)]);
    speed /= (doubled + graph_channels - 1) / graph_channels;
    graph_channels = doubled;
  }
  topo.graph.channels = graph_channels;
  topo.graph.bw_per_channel_gbps = speed;
  // Intra type: NVLink only when every ring edge crosses NVLink links alone.
  bool nvlink = true;
  for (const auto& ring : graph_rings)
    for (std::size_t k = 0; k < ring.size(); ++k)
      for (const auto& dl : search.path(ring[k], ring[(k + 1) % ring.size()]).links)
        nvlink = nvlink && node.links[static_cast<std::size_t>(dl.link)].spec.type == LinkType::nvlink;
  topo.graph.nvlink = nvlink;
  const int comm_channels = communicator_channels(topo.graph);
  for (int c = 0; c < comm_channels; ++c) {
    const auto& ring = graph_rings[static_cast<std::size_t>(c % graph_channels)];
    const auto it = std::find(topo.rings.begin(), topo.rings.end(), ring);
    if (it == topo.rings.end()) {
      topo.ring_of_channel.push_back(static_cast<int>(topo.rings.size()));
      topo.rings.push_back(ring);
    } else {
      topo.ring_of_channel.push_back(static_cast<int>(it - topo.rings.begin()));
    }
  }
  return topo;
}

ProtocolCost protocol_cost(trace::OpKind kind, int nranks, CollAlgo algo, Proto proto, const CommTopology& topo,
                           int channels) {
  ProtocolCost c;
  const bool alltoall = kind == trace::OpKind::alltoall;
  const double bus = bus_bandwidth_gbps(alltoall ? trace::OpKind::allgather : kind, nranks, algo, proto, topo.graph);
  c.channel_cap_gbps = bus > 0 ? bus / (channels > 0 ? channels : topo.channels()) : 0;
  c.step_latency_ns = step_latency_ns(algo, proto, topo.graph.nvlink);
  c.base_latency_ns = base_latency_ns(algo, proto);
  switch (proto) {
    case Proto::ll:
      c.wire_factor = 2.0;  // 8-byte lines: 4 bytes of data, 4 of flag
      c.chunk_bytes = kLlChunkBytes;
      break;
    case Proto::ll128:
      c.wire_factor = 128.0 / 120.0;  // 128-byte lines: 120 bytes of data, 8 of flag
      c.chunk_bytes = kLl128ChunkBytes / kLl128Warps;
      break;
    case Proto::simple: break;
  }
  return c;
}

}  // namespace linkcast::nccl
