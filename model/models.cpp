#include "model/models.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>

#include "core/error.hpp"
#include "core/strings.hpp"

namespace linkcast::model {

double hop_effective_gbps(const LinkSpec& hop, const Transfer& t) {
  return effective_gbps(hop, t.bytes, t.access, t.request_bytes);
}

double hop_ahead_effective_gbps(const LinkSpec& hop, const Transfer& t) {
  return ahead_effective_gbps(hop, t.bytes, t.access);
}

double hop_peak_gbps(const LinkSpec& hop, const Transfer& /*t*/) { return hop.gbps(); }

namespace {

/// The slowest hop of the path by `hop_gbps`; infinity for a path without hops.
double slowest_hop_gbps(const PathSpec& path, const Transfer& t, HopGbpsFn hop_gbps) {
  double bw = std::numeric_limits<double>::infinity();
  for (const LinkSpec& hop : path.hops) bw = std::min(bw, hop_gbps(hop, t));
  return bw;
}

}  // namespace

double path_effective_gbps(const PathSpec& path, const Transfer& t) {
  return slowest_hop_gbps(path, t, &hop_effective_gbps);
}

double path_ahead_effective_gbps(const PathSpec& path, const Transfer& t) {
  return slowest_hop_gbps(path, t, &hop_ahead_effective_gbps);
}

namespace {

// Each model's formula once, given the slowest hop's rate under its packet accounting (asked for
// only where the formula needs it: over the PathSpec's hops, or over a PreparedPath's).

template <class SlowestHopGbps>
double ahead_time(const PathSpec& path, const Transfer& t, const SlowestHopGbps& slowest_hop_gbps) {
  const double n = t.bytes;
  switch (path.cls) {
    case PathClass::d2d:  // "instead of BW_eff, we use the theoretical GPU memory bandwidth"
      return t.fixed_ns + n / path.src_memory_gbps;
    case PathClass::h2h: return t.fixed_ns + n / path.host_memory_gbps;
    default: break;
  }
  const double bw = slowest_hop_gbps();
  double time = t.fixed_ns + n / bw;                             // eq. 10
  if (t.pageable) time += 2.0 * n / path.host_memory_gbps;       // eq. 9
  return time;
}

template <class SlowestHopGbps>
double default_time(const PathSpec& path, const Transfer& t, const SlowestHopGbps& slowest_hop_gbps) {
  const double n = t.bytes;
  switch (path.cls) {
    // A device-to-device copy reads n bytes and writes n bytes of the same memory; a memset
    // only writes. Both run as streaming kernels, at the rate streaming work reaches in that
    // memory: in every kernel_rates.csv of tests/data/real the D2D memcpy runs 0-5% above the
    // triad kernel (H100: 2.88-3.02 against 2.81-2.90 TB/s read + write; H200: 3.99-4.27 against
    // 3.95-4.17), both 10-18% under the datasheet (3.35 and 4.8 TB/s).
    case PathClass::d2d: return t.fixed_ns + (t.write_only ? n : 2.0 * n) / path.src_streaming_gbps();
    // A host-to-host memcpy runs on one CPU thread.
    case PathClass::h2h:
      return t.fixed_ns + (path.host.copy_gbps > 0 ? n / path.host.copy_gbps
                                                   : 2.0 * n / path.host_memory_gbps);
    default: break;
  }
  double bw = slowest_hop_gbps();
  if (path.cls == PathClass::p2p) {
    // Peer copies also read the source's and write the destination's memory.
    bw = std::min({bw, path.src_memory_gbps, path.dst_memory_gbps});
  }
  if (t.pageable && t.regime != HostRegime::direct) {
    // The driver stages pageable memory in chunks through a pinned buffer; one CPU thread
    // copies chunk k+1 while the DMA engine moves chunk k, so the slower stage sets the pace. The
    // CPU side's rate depends on the host end: a cold or cache-warm source, used or fresh pages.
    const double host = path.host.staging_gbps(path.cls, t.regime);
    if (host > 0) {
      // Bytes staged before the copy's time starts move at the link's rate; the rest at the pace
      // of the slower stage.
      const double unstaged = std::clamp(t.unstaged_bytes, 0.0, n);
      return t.fixed_ns + unstaged / bw + (n - unstaged) / std::min(bw, host);
    } else {
      // No copy rate for this host: fall back to AHEAD's serial staging.
      return t.fixed_ns + n / bw + 2.0 * n / path.host_memory_gbps;
    }
  }
  return t.fixed_ns + n / bw;
}

double peak_time(const Transfer& t, double peak_gbps) { return t.fixed_ns + t.bytes / peak_gbps; }

double envelope_time(const Transfer& t, double peak_gbps) { return t.bytes / peak_gbps; }

/// The lowest of the hops' effective rates for n bytes (infinity without hops), as
/// slowest_hop_gbps computes it.
double slowest_prepared_gbps(const std::vector<WireAccounting>& hops, double n) {
  double bw = std::numeric_limits<double>::infinity();
  for (const WireAccounting& hop : hops) bw = std::min(bw, hop.effective_gbps(n));
  return bw;
}

}  // namespace

double ahead_time_ns(const PathSpec& path, const Transfer& t) {
  return ahead_time(path, t, [&] { return path_ahead_effective_gbps(path, t); });
}

double default_time_ns(const PathSpec& path, const Transfer& t) {
  return default_time(path, t, [&] { return path_effective_gbps(path, t); });
}

double peak_time_ns(const PathSpec& path, const Transfer& t) { return peak_time(t, path.peak_gbps()); }

double envelope_time_ns(const PathSpec& path, const Transfer& t) { return envelope_time(t, path.peak_gbps()); }

PreparedPath::PreparedPath(PathSpec path, Access access_kind) : spec(std::move(path)), access(access_kind) {
  const auto add_distinct = [](std::vector<WireAccounting>& to, const WireAccounting& w) {
    if (std::find(to.begin(), to.end(), w) == to.end()) to.push_back(w);
  };
  for (const LinkSpec& hop : spec.hops) {
    add_distinct(hops, wire_accounting(hop, access));
    add_distinct(ahead_hops, ahead_wire_accounting(hop, access));
  }
  peak_gbps = spec.peak_gbps();
}

double ahead_prepared_ns(const PreparedPath& path, const Transfer& t) {
  if (!path.covers(t)) return ahead_time_ns(path.spec, t);
  return ahead_time(path.spec, t, [&] { return slowest_prepared_gbps(path.ahead_hops, t.bytes); });
}

double default_prepared_ns(const PreparedPath& path, const Transfer& t) {
  if (!path.covers(t)) return default_time_ns(path.spec, t);
  return default_time(path.spec, t, [&] { return slowest_prepared_gbps(path.hops, t.bytes); });
}

void default_prepared_regimes_ns(const PreparedPath& path, Transfer t, std::span<const HostRegime> regimes,
                                 std::span<double> out) {
  double slowest = std::numeric_limits<double>::quiet_NaN();  // found at the first regime that asks
  bool found = false;
  const auto slowest_once = [&] {
    if (!found) {
      slowest = path.covers(t) ? slowest_prepared_gbps(path.hops, t.bytes) : path_effective_gbps(path.spec, t);
      found = true;
    }
    return slowest;
  };
  for (std::size_t k = 0; k < regimes.size(); ++k) {
    t.regime = regimes[k];
    out[k] = default_time(path.spec, t, slowest_once);
  }
}

double peak_prepared_ns(const PreparedPath& path, const Transfer& t) { return peak_time(t, path.peak_gbps); }

double envelope_prepared_ns(const PreparedPath& path, const Transfer& t) { return envelope_time(t, path.peak_gbps); }

namespace {

constexpr std::array<Model, 4> kModels = {{
    {"default",
     "linkcast: wire-level PCIe/NVLink packets, D2D reads+writes memory at its streaming rate, "
     "pageable staging at the host's rate for the copy's regime; projections anchor it on measured times",
     &default_time_ns, &hop_effective_gbps, true, true, &default_prepared_ns},
    {"ahead", "AHEAD (IPDPSW 2019) as published: LogGP with its PCIe/NVLink packet equations",
     &ahead_time_ns, &hop_ahead_effective_gbps, true, false, &ahead_prepared_ns},
    {"peak", "L + O + n / peak link bandwidth (AHEAD's Peak BW baseline)", &peak_time_ns, &hop_peak_gbps, true, false,
     &peak_prepared_ns},
    {"envelope", "n / peak link bandwidth (back-of-envelope baseline)", &envelope_time_ns, &hop_peak_gbps, false,
     false, &envelope_prepared_ns},
}};

}  // namespace

std::span<const Model> all_models() { return kModels; }

std::vector<std::string> model_names() { return names_of(kModels); }

const Model& find_model(std::string_view name) {
  for (const Model& m : kModels)
    if (m.name == name) return m;
  throw InputError(unknown_name("model", name, model_names()));
}

}  // namespace linkcast::model
