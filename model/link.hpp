// Link technologies: what one physical connection between two endpoints is and how fast its
// wire runs in each direction. Pure data and pure functions; the topology module builds these
// from YAML and the models turn them into transfer times.
//
// Units: bandwidths in GB/s (1e9 bytes per second per direction), which is conveniently one byte
// per nanosecond, so `bytes / gbps` is a time in ns.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace linkcast::model {

enum class LinkType : std::uint8_t {
  pcie,
  nvlink,
  xbus,             // IBM POWER9 inter-socket SMP bus
  upi,              // Intel Ultra Path Interconnect
  qpi,              // Intel QuickPath Interconnect
  infinity_fabric,  // AMD xGMI / Infinity Fabric
  nvlink_c2c,       // NVIDIA Grace-Hopper/Grace-Blackwell chip-to-chip
  hypertransport,   // AMD HyperTransport
  generic,          // anything else, described by bandwidth and latency alone
};

std::string_view to_string(LinkType type);
[[nodiscard]] std::optional<LinkType> parse_link_type(std::string_view name);
std::vector<std::string> link_type_names();
/// Generic link classes are described by their per-direction bandwidth and latency only.
bool is_generic(LinkType type);

/// PCI Express link parameters (PCI-SIG PCI Express Base Specification, revisions 1.0a-6.0).
struct PcieParams {
  int gen = 3;               // 1..6; 6 runs in flit mode
  int lanes = 16;            // 1, 2, 4, 8, 16, 32
  int mps_bytes = 256;       // Max Payload Size of a write TLP
  int mrrs_bytes = 512;      // Max Read Request Size
  int rcb_bytes = 64;        // Read Completion Boundary: completions carry this much data
  int addressing_bits = 64;  // 32 -> 3DW request headers, 64 -> 4DW
};

/// NVLink parameters: `count` links ("bricks") of one version between two endpoints.
struct NvlinkParams {
  int version = 2;             // 1..5
  int count = 1;               // >= 1
  double per_link_gbps = 0.0;  // 0: the version's nominal rate (nvlink_per_link_gbps)
};

/// One link, one direction's view (links are symmetric in linkcast).
struct LinkSpec {
  LinkType type = LinkType::generic;
  PcieParams pcie;          // meaningful when type == pcie
  NvlinkParams nvlink;      // meaningful when type == nvlink
  double generic_gbps = 0;  // per-direction bandwidth for generic link classes
  double latency_ns = 0;    // one-way latency of the link

  /// Per-direction bandwidth after line encoding (AHEAD's Link_BW), GB/s.
  double gbps() const;
  /// "PCIe Gen3 x16", "NV2 (NVLink2)", "X-Bus 64 GB/s".
  std::string describe() const;
  /// Whether `o` is the same class of link as describe() names it: the type and, for PCIe, the
  /// generation and lanes, for NVLink the version and link count, else the rate.
  bool same_class(const LinkSpec& o) const;
};

// --- PCIe ---------------------------------------------------------------------------------
/// Raw signalling rate per lane per direction, GT/s: Gen1 2.5, Gen2 5, Gen3 8, Gen4 16, Gen5 32,
/// Gen6 64 (PCI-SIG base specifications 1.0a, 2.0, 3.0, 4.0, 5.0, 6.0).
constexpr double pcie_lane_gtps(int gen) {
  switch (gen) {
    case 1: return 2.5;
    case 2: return 5.0;
    case 3: return 8.0;
    case 4: return 16.0;
    case 5: return 32.0;
    case 6: return 64.0;
    default: return 0.0;
  }
}
/// Line-code efficiency: 8b/10b for Gen1-2 (0.8), 128b/130b for Gen3-5; Gen6 PAM4 has no line
/// code (1.0): its 256-byte flit overhead is accounted per byte by the packet models instead.
constexpr double pcie_encoding_efficiency(int gen) {
  if (gen <= 2) return 8.0 / 10.0;     // 8b/10b
  if (gen <= 5) return 128.0 / 130.0;  // 128b/130b
  return 1.0;                          // Gen6 PAM4 + FLIT: overhead counted per flit
}
/// lanes x GT/s x efficiency / 8 bits, GB/s per direction.
constexpr double pcie_link_gbps(const PcieParams& p) {
  return p.lanes * pcie_lane_gtps(p.gen) * pcie_encoding_efficiency(p.gen) / 8.0;
}

// --- NVLink -------------------------------------------------------------------------------
/// Per-link, per-direction data rate, GB/s: v1 20 (Tesla P100 whitepaper, 2016), v2 25 (Tesla
/// V100 whitepaper, 2017), v3 25 (A100 Tensor Core GPU Architecture whitepaper, 2020: 12 links,
/// 600 GB/s total), v4 25 (H100 Tensor Core GPU Architecture whitepaper, 2022: 18 links, 900 GB/s
/// total), v5 50 (NVIDIA Blackwell Architecture Technical Brief, 2024: 18 links, 1.8 TB/s total).
constexpr double nvlink_per_link_gbps(int version) {
  switch (version) {
    case 1: return 20.0;
    case 2: return 25.0;
    case 3: return 25.0;
    case 4: return 25.0;
    case 5: return 50.0;
    default: return 0.0;
  }
}
constexpr double nvlink_link_gbps(const NvlinkParams& p) {
  const double per_link = p.per_link_gbps > 0 ? p.per_link_gbps : nvlink_per_link_gbps(p.version);
  return p.count * per_link;
}

// Defined here, where the rates above are known: every model evaluation asks for it, per hop.
inline double LinkSpec::gbps() const {
  switch (type) {
    case LinkType::pcie: return pcie_link_gbps(pcie);
    case LinkType::nvlink: return nvlink_link_gbps(nvlink);
    default: return generic_gbps;
  }
}

/// Default one-way latency of a link class when a config gives none, ns. These are routing
/// weights and the L term of multi-hop paths; see link.cpp for the source of each.
double default_latency_ns(LinkType type);

}  // namespace linkcast::model
