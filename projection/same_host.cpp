#include "projection/same_host.hpp"

#include <fmt/format.h>

#include <array>
#include <utility>

namespace linkcast::projection {

namespace {

/// The measured host rates of a CPU's memory, by their node-file keys (configs/SCHEMA.md).
constexpr std::array<std::pair<double topology::MemorySpec::*, const char*>, 5> kHostRates = {{
    {&topology::MemorySpec::copy_bandwidth_gbps, "copy_bandwidth_gbps"},
    {&topology::MemorySpec::warm_copy_gbps, "warm_copy_gbps"},
    {&topology::MemorySpec::first_touch_gbps, "first_touch_gbps"},
    {&topology::MemorySpec::pageable_h2d_gbps, "pageable_h2d_gbps"},
    {&topology::MemorySpec::pageable_d2h_gbps, "pageable_d2h_gbps"},
}};

}  // namespace

bool same_host_hardware(const topology::Endpoint& a, const topology::Endpoint& b) {
  return a.kind == topology::EndpointKind::cpu && b.kind == topology::EndpointKind::cpu && !a.model.empty() &&
         a.model == b.model && a.memory.bandwidth_gbps == b.memory.bandwidth_gbps;
}

std::optional<topology::Node> carry_source_host_rates(const topology::Node& from, const topology::Node& to,
                                                      const HostRateChoice& choice, std::vector<std::string>& notes) {
  if (choice.target_rates || &from == &to) return std::nullopt;
  std::optional<topology::Node> carried;
  for (std::size_t e = 0; e < to.endpoints.size(); ++e) {
    const topology::Endpoint& target = to.endpoints[e];
    const int s = from.find(target.id);
    if (s < 0 || !same_host_hardware(from.endpoints[static_cast<std::size_t>(s)], target)) continue;
    const topology::MemorySpec& source = from.endpoints[static_cast<std::size_t>(s)].memory;
    const topology::Endpoint* base = nullptr;
    if (choice.varied_from) {
      const int b = choice.varied_from->find(target.id);
      if (b >= 0) base = &choice.varied_from->endpoints[static_cast<std::size_t>(b)];
    }
    std::vector<std::string> changed;
    for (const auto& [rate, key] : kHostRates) {
      const double source_gbps = source.*rate, target_gbps = target.memory.*rate;
      // A rate the source does not measure stays the target's; one a study's point varies, too.
      if (source_gbps <= 0 || source_gbps == target_gbps) continue;
      if (base && base->memory.*rate != target_gbps) continue;
      if (!carried) carried = to;
      carried->endpoints[e].memory.*rate = source_gbps;
      changed.push_back(fmt::format("{} {:g} for {:g}", key, source_gbps, target_gbps));
    }
    if (changed.empty()) continue;
    notes.push_back(fmt::format(
        "target node '{}' ({}) endpoint '{}' is the source node's host hardware ({}, {:g} GB/s memory, "
        "as in '{}' ({})): its pageable copies keep the source's measured host rates ({} GB/s); two sessions of "
        "one host measure them apart, which is no change of the target's. --target-host-rates prices them with "
        "the target's",
        to.name, to.file, target.id, target.model, target.memory.bandwidth_gbps,
        from.name, from.file, fmt::join(changed, ", ")));
  }
  return carried;
}

}  // namespace linkcast::projection
