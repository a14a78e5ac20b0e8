#include "model/transfer.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include "core/strings.hpp"

namespace linkcast::model {

namespace {
constexpr auto kMemKindNames = std::to_array<std::string_view>({"unknown", "pageable", "pinned", "device", "managed"});
static_assert(kMemKindNames.size() == static_cast<std::size_t>(MemKind::managed) + 1, "one name per MemKind");
}

std::string_view to_string(MemKind kind) { return kMemKindNames[static_cast<std::size_t>(kind)]; }

std::optional<MemKind> parse_mem_kind(std::string_view name) { return enum_named<MemKind>(kMemKindNames, name); }

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

namespace {
constexpr auto kCopyClassNames = std::to_array<std::string_view>(
    {"h2d_pinned", "h2d_pageable", "d2h_pinned", "d2h_pageable", "d2d", "p2p", "h2h", "memset"});
static_assert(kCopyClassNames.size() == kCopyClassCount, "one name per CopyClass");
}

std::string_view to_string(CopyClass c) { return kCopyClassNames[static_cast<std::size_t>(c)]; }

std::optional<CopyClass> parse_copy_class(std::string_view name) {
  return enum_named<CopyClass>(kCopyClassNames, name);
}

namespace {
constexpr auto kHostRegimeNames = std::to_array<std::string_view>({"staged", "cold", "warm", "used", "fresh", "direct"});
static_assert(kHostRegimeNames.size() == kHostRegimeCount, "one name per HostRegime");
}

std::string_view to_string(HostRegime r) { return kHostRegimeNames[static_cast<std::size_t>(r)]; }

double HostRates::staging_gbps(PathClass cls, HostRegime regime) const {
  const bool h2d = cls == PathClass::h2d;
  double measured = 0;
  switch (regime) {
    case HostRegime::direct: return 0;
    case HostRegime::staged: measured = h2d ? pageable_h2d_gbps : pageable_d2h_gbps; break;
    case HostRegime::cold: measured = pageable_h2d_gbps; break;
    case HostRegime::warm: measured = warm_copy_gbps; break;
    case HostRegime::used: measured = pageable_d2h_gbps; break;
    case HostRegime::fresh: measured = first_touch_gbps; break;
  }
  return measured > 0 ? measured : copy_gbps;
}

CopyClass fixed_cost_class(PathClass cls, const Transfer& t) {
  if (t.write_only && cls == PathClass::d2d) return CopyClass::memset;
  return copy_class(cls, t.pageable);
}

CopyClass copy_class(PathClass cls, bool pageable) {
  switch (cls) {
    case PathClass::h2d: return pageable ? CopyClass::h2d_pageable : CopyClass::h2d_pinned;
    case PathClass::d2h: return pageable ? CopyClass::d2h_pageable : CopyClass::d2h_pinned;
    case PathClass::d2d: return CopyClass::d2d;
    case PathClass::p2p: return CopyClass::p2p;
    case PathClass::h2h: return CopyClass::h2h;
  }
  return CopyClass::p2p;
}

}  // namespace linkcast::model
