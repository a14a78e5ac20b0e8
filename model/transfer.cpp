#include "model/transfer.hpp"

#include <algorithm>
#include <array>
#include <limits>

namespace linkcast::model {

namespace {
constexpr std::array<std::string_view, 5> kMemKindNames = {"unknown", "pageable", "pinned",
                                                           "device", "managed"};
}

std::string_view to_string(MemKind kind) { return kMemKindNames[static_cast<std::size_t>(kind)]; }

std::optional<MemKind> parse_mem_kind(std::string_view name) {
  for (std::size_t i = 0; i < kMemKindNames.size(); ++i)
    if (kMemKindNames[i] == name) return static_cast<MemKind>(i);
  return std::nullopt;
}

std::string_view to_string(PathClass cls) {
  switch (cls) {
    case PathClass::h2d: return "h2d";
    case PathClass::d2h: return "d2h";
    case PathClass::d2d: return "d2d";
    case PathClass::p2p: return "p2p";
    case PathClass::h2h: return "h2h";
  }
  return "h2d";
}

double PathSpec::peak_gbps() const {
  if (hops.empty()) return src_memory_gbps;
  double peak = std::numeric_limits<double>::infinity();
  for (const LinkSpec& hop : hops) peak = std::min(peak, hop.gbps());
  return peak;
}

Access copy_access(PathClass cls) { return cls == PathClass::h2d ? Access::read : Access::write; }

}  // namespace linkcast::model
