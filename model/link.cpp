#include "model/link.hpp"

#include <fmt/format.h>

#include <array>

namespace linkcast::model {

namespace {

struct LinkTypeName {
  LinkType type;
  std::string_view name;
  std::string_view label;
};

constexpr std::array<LinkTypeName, 9> kLinkTypes = {{
    {LinkType::pcie, "pcie", "PCIe"},
    {LinkType::nvlink, "nvlink", "NVLink"},
    {LinkType::xbus, "xbus", "X-Bus"},
    {LinkType::upi, "upi", "UPI"},
    {LinkType::qpi, "qpi", "QPI"},
    {LinkType::infinity_fabric, "infinity_fabric", "Infinity Fabric"},
    {LinkType::nvlink_c2c, "nvlink_c2c", "NVLink-C2C"},
    {LinkType::hypertransport, "hypertransport", "HyperTransport"},
    {LinkType::generic, "generic", "link"},
}};

}  // namespace

std::string_view to_string(LinkType type) {
  for (const auto& t : kLinkTypes)
    if (t.type == type) return t.name;
  return "generic";
}

std::optional<LinkType> parse_link_type(std::string_view name) {
  for (const auto& t : kLinkTypes)
    if (t.name == name) return t.type;
  return std::nullopt;
}

std::vector<std::string> link_type_names() {
  std::vector<std::string> names;
  for (const auto& t : kLinkTypes) names.emplace_back(t.name);
  return names;
}

bool is_generic(LinkType type) { return type != LinkType::pcie && type != LinkType::nvlink; }

std::string LinkSpec::describe() const {
  switch (type) {
    case LinkType::pcie: return fmt::format("PCIe Gen{} x{}", pcie.gen, pcie.lanes);
    case LinkType::nvlink: return fmt::format("NV{} (NVLink{})", nvlink.count, nvlink.version);
    default: {
      for (const auto& t : kLinkTypes)
        if (t.type == type) return fmt::format("{} {:g} GB/s", t.label, generic_gbps);
      return "link";
    }
  }
}

bool LinkSpec::same_class(const LinkSpec& o) const {
  if (type != o.type) return false;
  switch (type) {
    case LinkType::pcie: return pcie.gen == o.pcie.gen && pcie.lanes == o.pcie.lanes;
    case LinkType::nvlink: return nvlink.version == o.nvlink.version && nvlink.count == o.nvlink.count;
    default: return generic_gbps == o.generic_gbps;
  }
}

double default_latency_ns(LinkType type) {
  switch (type) {
    // PCIe: ~150 ns per link + switch traversal; Broadcom/PLX PEX switches specify 100-150 ns
    // cut-through port-to-port latency (PEX 8764/88096 product briefs); Neugebauer et al.,
    // "Understanding PCIe performance for end host networking", SIGCOMM 2018, measure ~400-500 ns
    // for a whole host memory read round trip.
    case LinkType::pcie: return 150.0;
    // NVLink: one hop's wire+PHY latency is of the same order as PCIe's; NVSwitch adds a hop.
    // Li et al., "Evaluating Modern GPU Interconnect: PCIe, NVLink, NV-SLI, NVSwitch and
    // GPUDirect", IEEE TPDS 2020, report NVLink paths slightly lower in latency than PCIe ones.
    case LinkType::nvlink: return 100.0;
    case LinkType::nvlink_c2c: return 100.0;
    // Socket-to-socket links: ~100-150 ns extra for a remote-socket memory access on two-socket
    // Xeon/EPYC/POWER9 servers (vendor NUMA latency tables, e.g. Intel MLC reports on Skylake-SP).
    case LinkType::xbus:
    case LinkType::upi:
    case LinkType::qpi:
    case LinkType::infinity_fabric:
    case LinkType::hypertransport: return 120.0;
    case LinkType::generic: return 200.0;
  }
  return 200.0;
}

}  // namespace linkcast::model
