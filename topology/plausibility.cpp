#include "topology/plausibility.hpp"

#include <fmt/format.h>

namespace linkcast::topology {

namespace {

// Today's largest shipped values (configs/SOURCES.md): a socket's DDR5 peak 845 GB/s (12 channels
// of MRDIMM-8800, Xeon 6900P [56]); a GPU's memory 288 GB (B300, MI355X) and 8 TB/s (B200 [44]).
// A CPU that shares HBM (MI300A, 5.3 TB/s) is the one real case above the socket figure.
constexpr double kSocketPeakGbps = 845;
constexpr double kGpuMemoryGib = static_cast<double>(kLargestGpuMemoryBytes) / (1024.0 * 1024 * 1024);
constexpr double kGpuPeakGbps = 8000;

}  // namespace

std::vector<std::string> unusual_values(const Node& node) {
  std::vector<std::string> out;
  for (const Endpoint& e : node.endpoints) {
    const std::string where = fmt::format("{}:{}: {}", node.file, e.line, e.id);
    if (e.kind == EndpointKind::cpu && e.memory.bandwidth_gbps > kSocketPeakGbps)
      out.push_back(fmt::format("{} memory.bandwidth_gbps {} GB/s is above any socket's DDR ({} GB/s, 12 channels of "
                                "MRDIMM-8800); right only for a CPU that shares HBM (MI300A: 5300), else check the unit",
                                where, e.memory.bandwidth_gbps, kSocketPeakGbps));
    if (e.kind == EndpointKind::gpu && e.memory.capacity_gib > kGpuMemoryGib * 1.01)
      out.push_back(fmt::format("{} memory.capacity_gib {} GiB is more than any GPU ships with (288 GB = {:.0f} GiB: "
                                "B300, MI355X); check the unit",
                                where, e.memory.capacity_gib, kGpuMemoryGib));
    if (e.kind == EndpointKind::gpu && e.memory.bandwidth_gbps > kGpuPeakGbps)
      out.push_back(fmt::format("{} memory.bandwidth_gbps {} GB/s is above any GPU's memory today ({} GB/s, B200); "
                                "check the unit",
                                where, e.memory.bandwidth_gbps, kGpuPeakGbps));
  }
  return out;
}

}  // namespace linkcast::topology
