#include "projection/projector.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <unordered_map>

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "core/strings.hpp"
#include "core/units.hpp"
#include "nccl/pricing.hpp"
#include "topology/placement.hpp"

namespace linkcast::projection {

using trace::Category;
using trace::copy_class_of;

using model::CopyClass;
using trace::OpKind;
using trace::Trace;

namespace {

/// The endpoint map's word in messages: a front end with its own option for the map says that
/// instead (ChoiceError::Choice::map_entry).
constexpr std::string_view kMap = "map";

/// "map ...: what is wrong" about one entry of the endpoint map.
[[noreturn]] void throw_map_error(std::string_view entry, std::string_view what) {
  throw ChoiceError(fmt::format("{}{}: {}", kMap, entry, what), ChoiceError::Choice::map_entry, 0, kMap.size());
}

/// Trace endpoint `name` after the map.
const std::string& mapped(const EndpointMap& map, const std::string& name) {
  const auto it = map.find(name);
  return it != map.end() ? it->second : name;
}

}  // namespace

EndpointMap parse_endpoint_map(std::string_view text) {
  EndpointMap map;
  if (trim(text).empty()) return map;
  // Entries are comma-separated; a repeated --map reaches here as entries joined by newlines.
  std::string joined(text);
  std::replace(joined.begin(), joined.end(), '\n', ',');
  for (std::string_view part : split(joined, ',')) {
    part = trim(part);
    const std::size_t eq = part.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == part.size() ||
        part.find('=', eq + 1) != std::string_view::npos)
      throw_map_error("", fmt::format("'{}' is not NAME=NAME; write e.g. gpu0=gpu2,gpu1=gpu3", part));
    const std::string from(trim(part.substr(0, eq))), to(trim(part.substr(eq + 1)));
    if (!map.emplace(from, to).second) throw_map_error("", fmt::format("'{}' is mapped twice", from));
  }
  return map;
}

EndpointMap source_placement(const topology::Node& from, const EndpointMap& map) {
  EndpointMap placed;
  for (const auto& [name, target] : map)
    if (from.find(name) < 0) placed.emplace(name, target);
  return placed;
}

int Projector::resolve(const topology::Node& node, const EndpointMap& map, std::uint16_t id,
                       std::uint16_t other) const {
  const std::string& name = mapped(map, trace_->endpoint_name(id));
  if (name != "host") return node.find(name);
  const std::string& other_name = mapped(map, trace_->endpoint_name(other));
  return topology::place_host(node, other_name == "host" ? -1 : node.find(other_name));
}

Projector::Projector(const topology::Node& from, const topology::Node& to, const Trace& trace,
                     const EndpointMap& map, const HostRateChoice& host)
    : from_(&from), carried_to_(carry_source_host_rates(from, to, host, warnings_)),
      to_(carried_to_ ? &*carried_to_ : &to), trace_(&trace), owned_index_(std::make_unique<trace::TraceIndex>(trace)),
      index_(owned_index_.get()), routes_(*to_, topology::Routes::Compute::on_demand),
      src_routes_(from, topology::Routes::Compute::on_demand), endpoints_(trace.endpoint_count()) {
  prepare(from, map);
}

Projector::Projector(const topology::Node& from, const topology::Node& to, const trace::TraceIndex& index,
                     const EndpointMap& map, const HostRateChoice& host)
    : from_(&from), carried_to_(carry_source_host_rates(from, to, host, warnings_)),
      to_(carried_to_ ? &*carried_to_ : &to), trace_(index.trace), index_(&index),
      routes_(*to_, topology::Routes::Compute::on_demand),
      src_routes_(from, topology::Routes::Compute::on_demand), endpoints_(index.trace->endpoint_count()) {
  prepare(from, map);
}

void Projector::prepare(const topology::Node& from, const EndpointMap& map) {
  const Trace& trace = *trace_;
  const topology::Node& to = *to_;
  for (const auto& [name, target] : map) {
    const auto& names = trace.endpoint_names();
    if (std::find(names.begin(), names.end(), name) == names.end())
      warnings_.push_back(fmt::format("{} {}={}: the trace has no endpoint '{}'", kMap, name, target, name));
    if (to.find(target) < 0)
      throw_map_error(fmt::format(" {}={}", name, target),
                      fmt::format("node '{}' ({}) has no endpoint '{}'{}", to.name, to.file, target,
                                  did_you_mean(target, to.endpoint_ids())));
  }
  // Every endpoint the trace uses exists on both nodes (the target after --map); the message
  // names the first record that uses a missing one.
  std::vector<std::pair<std::size_t, std::uint16_t>> used;
  for (std::size_t e = 0; e < index_->first_record.size(); ++e)
    if (index_->first_record[e] != std::numeric_limits<std::size_t>::max())
      used.emplace_back(index_->first_record[e], static_cast<std::uint16_t>(e));
  std::sort(used.begin(), used.end());
  for (const auto& [record, id] : used) {
    const std::string& name = trace.endpoint_name(id);
    if (name == "host") continue;
    if (from.find(name) < 0 && from.find(mapped(map, name)) < 0) {
      const std::string message =
          fmt::format("{}: {}: endpoint '{}' is not in the source node '{}' ({}){}; map it onto one that is",
                      trace.source_file, trace.describe_record(record), name, from.name, from.file,
                      did_you_mean(name, from.endpoint_ids()));
      throw ChoiceError(message + fmt::format(" (source has {})", join(from.endpoint_ids(), ", ")),
                        ChoiceError::Choice::map_endpoint, message.size(), 0, name);
    }
    const std::string& target = mapped(map, name);
    if (to.find(target) < 0) {
      // The hint (a front end's option for the map) goes before the list of the target's endpoints.
      const std::string message =
          fmt::format("{}: {}: endpoint '{}' is not in the target node '{}' ({}); map it onto one that is",
                      trace.source_file, trace.describe_record(record), target, to.name, to.file);
      throw ChoiceError(message + fmt::format(" (target has {})", join(to.endpoint_ids(), ", ")),
                        ChoiceError::Choice::map_endpoint, message.size(), 0, name);
    }
  }
  // Two GPUs of the trace on one of the target's would make their peer copies copies within one
  // GPU, still called peer copies (a robustness hunt: 1 MiB gpu0 -> gpu1 with gpu0=gpu1 priced at
  // D2D speed): refused, as simulate refuses it.
  std::map<std::string, std::string> gpu_on;  // target GPU -> the trace's GPU placed there
  for (const std::uint16_t id : trace::gpus_named(trace)) {
    const std::string& name = trace.endpoint_name(id);
    const auto [it, fresh] = gpu_on.emplace(mapped(map, name), name);
    if (!fresh && it->second != name)
      throw_map_error("", fmt::format("{} and {} of the trace both go onto '{}' of node '{}'; each GPU of the trace "
                                      "takes a GPU of its own",
                                      it->second, name, it->first, to.name));
  }
  // Every pair and communicator on the target (after the map) and on the source (as recorded).
  const EndpointMap on_source_map = source_placement(from, map);
  for (const bool on_source : {false, true}) {
    const topology::Node& node = on_source ? from : to;
    const topology::Routes& routes = on_source ? src_routes_ : routes_;
    const EndpointMap& m = on_source ? on_source_map : map;
    std::vector<PreparedPair>& pairs = on_source ? src_pairs_ : pairs_;
    pairs.resize(endpoints_ * endpoints_);
    for (const trace::TraceIndex::Use& u : index_->pairs) {
      PreparedPair& p = pairs[static_cast<std::size_t>(u.src) * endpoints_ + u.dst];
      try {
        const int ts = resolve(node, m, u.src, u.dst), td = resolve(node, m, u.dst, u.src);
        model::PathSpec spec = topology::make_path_spec(node, routes, ts, td);
        const model::Access access = model::copy_access(spec.cls);
        p.path = model::PreparedPath(std::move(spec), access);
      } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}: {}", trace.source_file, trace.describe_record(u.first_record), e.what()));
      }
      p.ready = true;
    }
    std::vector<nccl::RingPaths>& groups = on_source ? src_groups_ : groups_;
    groups.resize(trace.group_count());
    for (const auto& [group, record] : index_->groups) {
      nccl::RingPaths g;
      std::vector<int> targets;
      for (std::uint16_t member : trace.group(group)) targets.push_back(resolve(node, m, member, member));
      for (std::size_t k = 0; k < targets.size() && targets.size() > 1; ++k) {
        g.ring.push_back(topology::make_path_spec(node, routes, targets[k], targets[(k + 1) % targets.size()]));
        if (k > 0) g.from_first.push_back(topology::make_path_spec(node, routes, targets[0], targets[k]));
      }
      groups[group] = std::move(g);
    }
  }
  estimate_fixed_costs(from);
  measure_collective_waits();
  prepare_anchors();
}

void Projector::measure_collective_waits() {
  const auto& starts = trace_->starts();
  const auto& durations = trace_->durations();
  for (const std::vector<std::size_t>& call : trace::collective_calls(*trace_)) {
    if (call.size() < 2) continue;
    std::int64_t last_start = std::numeric_limits<std::int64_t>::min();
    bool timed = true;
    for (std::size_t r : call) {
      timed = timed && durations[r] > 0;
      last_start = std::max(last_start, starts[r]);
    }
    if (!timed) continue;
    if (wait_ns_.empty()) wait_ns_.assign(trace_->size(), 0.0);
    for (std::size_t r : call) {
      // In double: starts far apart (hostile input) must not overflow.
      const double wait = static_cast<double>(last_start) - static_cast<double>(starts[r]);
      wait_ns_[r] = std::clamp(wait, 0.0, static_cast<double>(durations[r]));
    }
  }
}

namespace {

/// Each copy class's 1-byte cost from the trace's own small transfers, else `first`'s calibration,
/// else `second`'s, else borrowed from the closest known class.
std::array<FixedCost, model::kCopyClassCount> resolve_fixed_costs(const trace::TraceIndex& index,
                                                                  const topology::Node& first,
                                                                  const topology::Node& second, bool first_is_target) {
  std::array<FixedCost, model::kCopyClassCount> fixed;
  for (std::size_t c = 0; c < model::kCopyClassCount; ++c) {
    FixedCost& f = fixed[c];
    const auto cls = static_cast<CopyClass>(c);
    const char* first_role = first_is_target ? "target" : "source";
    const char* second_role = first_is_target ? "source" : "target";
    if (index.small_count[c] > 0) {
      f = {index.small_median_ns[c],
           fmt::format("source trace: median of {} {} <= {} B", index.small_count[c],
                       static_cast<CopyClass>(c) == CopyClass::memset ? "memsets" : "copies", trace::kSmallTransferBytes),
           true};
    } else if (const auto t = first.calibration.get(cls)) {
      f = {*t, fmt::format("{} node '{}' calibration", first_role, first.name), true};
    } else if (const auto s = second.calibration.get(cls)) {
      f = {*s, fmt::format("{} node '{}' calibration", second_role, second.name), true};
    }
  }
  // Classes still unknown borrow the closest known class, in order of likeness; else only the
  // links' latency is charged (in PathSpec).
  const std::array<std::array<CopyClass, 4>, model::kCopyClassCount> fallback = {{
      {CopyClass::h2d_pageable, CopyClass::d2h_pinned, CopyClass::p2p, CopyClass::d2d},   // h2d_pinned
      {CopyClass::h2d_pinned, CopyClass::d2h_pageable, CopyClass::d2h_pinned, CopyClass::p2p},
      {CopyClass::d2h_pageable, CopyClass::h2d_pinned, CopyClass::p2p, CopyClass::d2d},   // d2h_pinned
      {CopyClass::d2h_pinned, CopyClass::h2d_pageable, CopyClass::h2d_pinned, CopyClass::p2p},
      {CopyClass::p2p, CopyClass::h2d_pinned, CopyClass::d2h_pinned, CopyClass::h2h},     // d2d
      {CopyClass::d2d, CopyClass::d2h_pinned, CopyClass::h2d_pinned, CopyClass::h2h},     // p2p
      {CopyClass::h2d_pinned, CopyClass::d2h_pinned, CopyClass::d2d, CopyClass::p2p},     // h2h
      {CopyClass::d2d, CopyClass::p2p, CopyClass::h2d_pinned, CopyClass::d2h_pinned},     // memset
  }};
  std::array<FixedCost, model::kCopyClassCount> resolved = fixed;
  const FixedCost* any_known = nullptr;
  std::size_t any_class = 0;
  for (std::size_t k = 0; k < fixed.size(); ++k)
    if (fixed[k].known && !any_known) {
      any_known = &fixed[k];
      any_class = k;
    }
  for (std::size_t c = 0; c < model::kCopyClassCount; ++c) {
    if (fixed[c].known) continue;
    for (CopyClass alt : fallback[c]) {
      const FixedCost& a = fixed[static_cast<std::size_t>(alt)];
      if (a.known) {
        resolved[c] = {a.ns, fmt::format("borrowed from {} ({})", model::to_string(alt), a.origin), true};
        break;
      }
    }
    if (!resolved[c].known && any_known)
      resolved[c] = {any_known->ns,
                     fmt::format("borrowed from {} ({})", model::to_string(static_cast<CopyClass>(any_class)),
                                 any_known->origin),
                     true};
    if (!resolved[c].known)
      resolved[c].origin = "unknown: no small transfers in the trace and no calibration in either node";
  }
  return resolved;
}

}  // namespace

void Projector::estimate_fixed_costs(const topology::Node& from) {
  fixed_ = resolve_fixed_costs(*index_, *to_, from, true);
  src_fixed_ = resolve_fixed_costs(*index_, from, *to_, false);
  bool any_known = false;
  for (const FixedCost& f : fixed_) any_known |= f.known;
  if (!any_known && !trace_->empty()) {
    warnings_.push_back(
        "no 1-byte transfer cost (L + O) is known: the trace has no transfers <= 64 B and neither node "
        "has `calibration:`; transfers are projected without a fixed cost (add calibration to a node file)");
  }
}

Projector::SidePricing Projector::side_pricing(std::size_t i, bool source) const {
  const std::uint16_t s = trace_->srcs()[i], d = trace_->dsts()[i];
  const Category cat = index_->categories[i];
  SidePricing side;
  side.path = &(source ? src_pair(s, d) : pair(s, d)).path;
  side.transfer = trace::transfer_of(*trace_, i, side.path->spec.cls, is_pageable(cat));
  side.fixed_class = static_cast<std::size_t>(fixed_class(cat, side.path->spec.cls));
  return side;
}

Projector::Sides Projector::sides_of(std::size_t i) const {
  Sides sides;
  sides[0] = side_pricing(i, false);
  const std::uint16_t s = trace_->srcs()[i], d = trace_->dsts()[i];
  const model::PreparedPath& on_source = src_pair(s, d).path;
  if (on_source.spec.cls != sides[0].path->spec.cls) {
    sides[1] = side_pricing(i, true);
    return sides;
  }
  // A path of the same class on both nodes: the same transfer and copy class.
  sides[1] = sides[0];
  sides[1].path = &on_source;
  return sides;
}

model::Transfer Projector::charged_transfer(const SidePricing& side,
                                            const std::array<FixedCost, model::kCopyClassCount>& fixed) {
  model::Transfer t = side.transfer;
  t.fixed_ns = model::charged_fixed_ns(t, fixed[side.fixed_class].ns);
  return t;
}

double Projector::priced_ns(const SidePricing& side, const model::Model& m,
                            const std::array<FixedCost, model::kCopyClassCount>& fixed, model::HostRegime regime) {
  model::Transfer t = charged_transfer(side, fixed);
  t.regime = regime;
  return m.time_ns_over(*side.path, t);
}

double Projector::model_time_ns(std::size_t i, const model::Model& m, bool source, bool anchor,
                                model::HostRegime regime) const {
  if (trace::is_collective(index_->categories[i])) return collective_time_ns(i, m, source, anchor);
  return priced_ns(side_pricing(i, source), m, anchor || source ? src_fixed_ : fixed_, regime);
}

namespace {
/// The model `measured` stands in with for an operation without a measured time.
const model::Model& unmeasured_fallback() {
  static const model::Model& fallback = model::find_model("default");
  return fallback;
}
}  // namespace

template <class Unanchored>
double Projector::target_ns(std::size_t i, double measured, const model::Model& m, const Unanchored& unanchored,
                            const Sides* sides) const {
  if (&m == &measured_model()) return measured > 0 ? measured : unanchored(unmeasured_fallback(), false);
  if (m.anchored && measured > 0) return anchored_ns(i, measured, sides);
  return unanchored(m, false);
}

template <class Unanchored>
double Projector::source_ns(double measured, const model::Model& m, const Unanchored& unanchored) const {
  if ((&m == &measured_model() || m.anchored) && measured > 0) return measured;
  return unanchored(&m == &measured_model() ? unmeasured_fallback() : m, true);
}

double Projector::time_ns(std::size_t i, const model::Model& m) const {
  return target_ns(i, measured_ns(i), m,
                   [&](const model::Model& u, bool source) { return model_time_ns(i, u, source, false); });
}

double Projector::source_time_ns(std::size_t i, const model::Model& m) const {
  return source_ns(measured_ns(i), m,
                   [&](const model::Model& u, bool source) { return model_time_ns(i, u, source, false); });
}

void Projector::times_ns(std::size_t i, const std::vector<const model::Model*>& models, double* target,
                         double* source) const {
  const double measured = measured_ns(i);
  if (trace::is_collective(index_->categories[i])) {
    const auto unanchored = [&](const model::Model& u, bool on_source) {
      return collective_time_ns(i, u, on_source, false);
    };
    for (std::size_t m = 0; m < models.size(); ++m) {
      target[m] = target_ns(i, measured, *models[m], unanchored);
      source[m] = source_ns(measured, *models[m], unanchored);
    }
    return;
  }
  // The operation's pricing on each node and its transfer there, read once for every model and
  // its anchor.
  const Sides sides = sides_of(i);
  std::array<model::Transfer, 2> charged = {charged_transfer(sides[0], fixed_), charged_transfer(sides[1], src_fixed_)};
  for (model::Transfer& t : charged) t.regime = model::HostRegime::staged;
  const auto unanchored = [&](const model::Model& u, bool on_source) {
    const std::size_t k = on_source ? 1 : 0;
    return u.time_ns_over(*sides[k].path, charged[k]);
  };
  for (std::size_t m = 0; m < models.size(); ++m) {
    target[m] = target_ns(i, measured, *models[m], unanchored, &sides);
    source[m] = source_ns(measured, *models[m], unanchored);
  }
}

model::CopyClass Projector::fixed_class(Category cat, model::PathClass cls) {
  if (const auto copy = copy_class_of(cat)) return *copy;
  return model::copy_class(cls, is_pageable(cat));
}

double Projector::fixed_ns(std::size_t i, const model::PathSpec& spec) const {
  return fixed_[static_cast<std::size_t>(fixed_class(i, spec))].ns;
}

std::vector<double> Projector::group_times(const std::vector<const model::Model*>& models) const {
  const std::size_t groups = index_->group_first.size();
  std::vector<double> out(groups * models.size());
  for (std::size_t m = 0; m < models.size(); ++m) {
    const model::Model& model = *models[m];
    if (!model.anchored && &model != &measured_model()) {
      for (std::size_t g = 0; g < groups; ++g) out[g * models.size() + m] = time_ns(index_->group_first[g], model);
      continue;
    }
    // Operations of one group differ by their measured times: the group's mean.
    for (std::size_t i = 0; i < trace_->size(); ++i) out[index_->group_of[i] * models.size() + m] += time_ns(i, model);
    for (std::size_t g = 0; g < groups; ++g) out[g * models.size() + m] /= index_->group_count[g];
  }
  return out;
}

// --- anchoring ----------------------------------------------------------------------------------

namespace {

/// The regime of each slot of a pageable copy's anchor, by direction.
constexpr std::array<model::HostRegime, 3> kH2dSlots = {model::HostRegime::cold, model::HostRegime::warm,
                                                        model::HostRegime::direct};
constexpr std::array<model::HostRegime, 3> kD2hSlots = {model::HostRegime::used, model::HostRegime::fresh,
                                                        model::HostRegime::direct};

/// How far a time is from a model's, as a ratio >= 1 (|log| without the log).
double distance(double measured, double model) {
  if (model <= 0) return std::numeric_limits<double>::infinity();
  return measured > model ? measured / model : model / measured;
}

std::string_view regime_key(model::HostRegime r) {
  switch (r) {
    case model::HostRegime::cold: return "pageable_h2d_gbps";
    case model::HostRegime::warm: return "warm_copy_gbps";
    case model::HostRegime::used: return "pageable_d2h_gbps";
    case model::HostRegime::fresh: return "first_touch_gbps";
    default: return "copy_bandwidth_gbps";
  }
}

}  // namespace

namespace {

/// What bounds a transfer of `bytes` over `spec` before host effects: the slowest hop's link
/// technology ("PCIe Gen5 x16"), or the device's memory for a path without hops.
/// Groups are anchored in chunks of this many, on the machine's cores.
constexpr std::size_t kAnchorChunkGroups = 4096;
/// The source node's description is checked against the trace in chunks of this many operations
/// (a trace of fewer in one, in order).
constexpr std::size_t kCheckChunkOps = std::size_t{1} << 16;

/// The hop of `spec` with the lowest effective rate for `bytes` (nullptr on a path of no link),
/// and that rate.
std::pair<const model::LinkSpec*, double> slowest_hop(const model::PathSpec& spec, double bytes) {
  const model::Access access = model::copy_access(spec.cls);
  const model::LinkSpec* slowest = nullptr;
  double slowest_gbps = std::numeric_limits<double>::infinity();
  for (const auto& hop : spec.hops) {
    const double g = model::effective_gbps(hop, bytes, access);
    if (g < slowest_gbps) {
      slowest = &hop;
      slowest_gbps = g;
    }
  }
  return {slowest, slowest_gbps};
}

/// Whether transfers of `bytes` over `a` and over `b` are bounded by the same resource as
/// LinkSpec::describe() names it: slowest hops of one class, or, on paths of no link, source
/// memories of one rate.
bool same_bottleneck(const model::PathSpec& a, const model::PathSpec& b, double bytes) {
  const model::LinkSpec* link_a = slowest_hop(a, bytes).first;
  const model::LinkSpec* link_b = slowest_hop(b, bytes).first;
  if (link_a && link_b) return link_a->same_class(*link_b);
  return !link_a && !link_b && a.src_memory_gbps == b.src_memory_gbps &&
         a.src_memory_stream_gbps == b.src_memory_stream_gbps;
}

/// Whether every GPU of `node` gives its memory's measured streaming rate (`stream_gbps`).
bool streaming_rates_measured(const topology::Node& node) {
  bool any = false;
  for (const topology::Endpoint& e : node.endpoints) {
    if (e.kind != topology::EndpointKind::gpu) continue;
    if (e.memory.stream_gbps <= 0) return false;
    any = true;
  }
  return any;
}

}  // namespace

bool Projector::fresh_destination(std::size_t i) const {
  // The readers flag copies whose destination was allocated for them (Kineto: a copy inside
  // aten::_to_copy); elsewhere the regime follows the measured time alone.
  return (trace_->flags()[i] & trace::kFreshDestination) != 0;
}

Projector::Anchor Projector::priced_anchor(std::size_t i, const Sides* sides, bool source_only) const {
  static const model::Model& dflt = model::find_model("default");
  Anchor a;
  const Category cat = index_->categories[i];
  if (trace::is_collective(cat)) {
    a.pick[0] = a.src[0] = collective_time_ns(i, dflt, true, true);
    if (!source_only) a.tgt[0] = collective_time_ns(i, dflt, false, true);
    return a;
  }
  // Both sides pay the source's 1-byte costs (the anchor's).
  std::optional<Sides> read;
  if (!sides) {
    read.emplace();
    (*read)[1] = side_pricing(i, true);
    if (!source_only) (*read)[0] = side_pricing(i, false);
    sides = &*read;
  }
  const SidePricing& on_source = (*sides)[1];
  const SidePricing& on_target = (*sides)[0];
  if (!is_pageable(cat)) {
    a.pick[0] = a.src[0] = priced_ns(on_source, dflt, src_fixed_, model::HostRegime::staged);
    if (!source_only) a.tgt[0] = priced_ns(on_target, dflt, src_fixed_, model::HostRegime::staged);
    return a;
  }
  const bool h2d = cat == Category::h2d_pageable;
  const auto& slots = h2d ? kH2dSlots : kD2hSlots;
  a.slots = 3;
  // dflt's prices in the three regimes, each side's path rate for the size found once.
  model::default_prepared_regimes_ns(*on_source.path, charged_transfer(on_source, src_fixed_), slots, a.src);
  if (!source_only)
    model::default_prepared_regimes_ns(*on_target.path, charged_transfer(on_target, src_fixed_), slots, a.tgt);
  a.pick = a.src;
  const model::PathSpec& spec = on_source.path->spec;
  const model::HostRates& host = spec.host;
  a.warm_priced = h2d && host.warm_copy_gbps > 0;
  a.fresh_priced = !h2d && host.first_touch_gbps > 0;
  for (std::size_t k = 0; k < 2; ++k) a.host_unpriced[k] = host.staging_gbps(spec.cls, slots[k]) <= 0;
  return a;
}

bool Projector::same_bound(std::size_t i) const {
  const double n = static_cast<double>(trace_->bytes()[i]);
  if (trace::is_collective(index_->categories[i])) {
    const auto& src_ring = src_groups_[trace_->group_ids()[i]].ring;
    const auto& tgt_ring = groups_[trace_->group_ids()[i]].ring;
    return !src_ring.empty() && !tgt_ring.empty() && same_bottleneck(src_ring.front(), tgt_ring.front(), n);
  }
  return same_bottleneck(src_pair(trace_->srcs()[i], trace_->dsts()[i]).spec(),
                         pair(trace_->srcs()[i], trace_->dsts()[i]).spec(), n);
}

void Projector::calibrate(Anchor& a, std::size_t i, const SidePricing* on_source) const {
  const auto c = static_cast<std::size_t>(index_->categories[i]);
  if (carries_excess_[c]) a.carries_excess = true;
  for (std::size_t k = 0; k < a.slots; ++k) {
    const SlotCalibration& cal = calibration_[c][k];
    if (!cal.applies) continue;
    // A group that the same technology bounds on both nodes keeps the node's rate where the
    // difference is within the models' own error.
    if (!cal.misdescribed && !cal.host_unpriced && !is_pageable(index_->categories[i]) && same_bound(i)) continue;
    const double fixed_src = trace::is_collective(index_->categories[i])
                                 ? 0.0
                                 : anchor_source_fixed(on_source ? *on_source : side_pricing(i, true));
    // The node's bandwidth term for the group, scaled to the measured rate; with no host rate
    // on the source at all, nothing of the measured time can be told apart: the target's model.
    const bool priced_alike = a.tgt[k] == a.pick[k];
    a.src[k] = fixed_src + std::max(a.pick[k] - fixed_src, 0.0) / cal.ratio;
    if (priced_alike) {
      a.tgt[k] = a.src[k];
    } else if (cal.host_unpriced) {
      a.src[k] = 0;
    }
  }
}

const Projector::Anchor& Projector::anchor_of(std::size_t i, Anchor& scratch, const Sides* sides) const {
  const std::uint32_t kept = anchor_index_[index_->group_of[i]];
  if (kept != kAnchoredWhereRead) return anchors_[kept];
  // A group of one: what prepare_anchors does for a kept group, for this operation alone.
  scratch = priced_anchor(i, sides);
  set_single_group_slot(scratch, i);
  calibrate(scratch, i, sides ? &(*sides)[1] : nullptr);
  return scratch;
}

void Projector::set_single_group_slot(Anchor& a, std::size_t i) const {
  const std::int64_t duration = trace_->durations()[i];
  if (a.slots > 1 && duration > 0)
    a.group_slot =
        static_cast<std::uint8_t>(anchor_slot(a, i, std::exp(std::log(static_cast<double>(duration))), false));
}

const Projector::Anchor& Projector::source_anchor_of(std::size_t i, Anchor& scratch, const Sides* sides) const {
  const std::uint32_t kept = anchor_index_[index_->group_of[i]];
  if (kept != kAnchoredWhereRead) return anchors_[kept];
  scratch = priced_anchor(i, sides, true);
  set_single_group_slot(scratch, i);
  return scratch;
}

void Projector::prepare_anchors() {
  const std::size_t groups = index_->group_first.size();
  // Groups of several operations keep their anchor; a group of one is anchored where it is read.
  anchor_index_.assign(groups, kAnchoredWhereRead);
  std::vector<std::uint32_t> kept_first;  // per kept anchor: its group's first operation
  for (std::size_t g = 0; g < groups; ++g)
    if (index_->group_count[g] > 1) {
      anchor_index_[g] = static_cast<std::uint32_t>(kept_first.size());
      kept_first.push_back(index_->group_first[g]);
    }
  anchors_.assign(kept_first.size(), Anchor{});
  // Each kept group's prices on both nodes, on the machine's cores.
  parallel_chunks(anchors_.size(), kAnchorChunkGroups, [&](std::size_t, std::size_t begin, std::size_t end) {
    for (std::size_t a = begin; a < end; ++a) anchors_[a] = priced_anchor(kept_first[a]);
  });
  // Each pageable group's slot: the one its geometric mean measured time is closest to.
  {
    std::vector<double> log_sum(anchors_.size(), 0.0);
    std::vector<std::uint32_t> timed(anchors_.size(), 0);
    const auto& durations = trace_->durations();
    for (std::size_t i = 0; i < trace_->size(); ++i) {
      const std::uint32_t a = anchor_index_[index_->group_of[i]];
      if (a == kAnchoredWhereRead || anchors_[a].slots == 1 || durations[i] <= 0) continue;
      log_sum[a] += std::log(static_cast<double>(durations[i]));
      ++timed[a];
    }
    for (std::size_t a = 0; a < anchors_.size(); ++a)
      if (timed[a] > 0)
        anchors_[a].group_slot = static_cast<std::uint8_t>(
            anchor_slot(anchors_[a], kept_first[a], std::exp(log_sum[a] / timed[a]), false));
  }
  // Check the source node's description against the trace: per category and slot, the rate its
  // operations >= kAnchorCheckMinBytes ran at against the rate the node's values give them.
  struct Sum {
    double bytes = 0, measured_ns = 0, model_ns = 0, fixed_ns = 0;
    std::size_t ops = 0;
    std::size_t unresolved = 0;  // operations that last no longer than their 1-byte cost
    bool host_unpriced = false;
    void add(const Sum& o) {
      bytes += o.bytes;
      measured_ns += o.measured_ns;
      model_ns += o.model_ns;
      fixed_ns += o.fixed_ns;
      ops += o.ops;
      unresolved += o.unresolved;
      host_unpriced |= o.host_unpriced;
    }
  };
  using Sums = std::array<std::array<Sum, 3>, trace::kCategoryCount>;
  const auto& durations = trace_->durations();
  const auto& bytes = trace_->bytes();
  // Summed in chunks on the machine's cores (where every operation has its own size, each is
  // priced here), then the chunks in order: the same figures on any machine.
  std::vector<Sums> chunk_sums(chunk_count(trace_->size(), kCheckChunkOps));
  parallel_chunks(trace_->size(), kCheckChunkOps, [&](std::size_t chunk, std::size_t begin, std::size_t end) {
    Sums& sums = chunk_sums[chunk];
    for (std::size_t i = begin; i < end; ++i) {
      // A transfer beside a kernel tells of the competition, not of the node.
      if (durations[i] <= 0 || bytes[i] < kAnchorCheckMinBytes || beside_compute(i)) continue;
      const bool collective = trace::is_collective(index_->categories[i]);
      Sides sides;
      if (!collective) sides[1] = side_pricing(i, true);
      Anchor scratch;
      const Anchor& a = source_anchor_of(i, scratch, collective ? nullptr : &sides);
      const int k = anchor_slot(a, i, static_cast<double>(durations[i]));
      const auto c = static_cast<std::size_t>(index_->categories[i]);
      Sum& sum = sums[c][static_cast<std::size_t>(k)];
      const double fixed_src = collective ? 0.0 : anchor_source_fixed(sides[1]);
      sum.bytes += static_cast<double>(bytes[i]);
      const double net_ns = static_cast<double>(durations[i]) - wait_ns(i) - fixed_src;
      sum.measured_ns += std::max(net_ns, 1.0);
      sum.fixed_ns += fixed_src;
      if (net_ns <= 1.0) ++sum.unresolved;
      sum.model_ns += std::max(a.pick[static_cast<std::size_t>(k)] - fixed_src, 1.0);
      sum.host_unpriced |= a.host_unpriced[static_cast<std::size_t>(k)];
      ++sum.ops;
    }
  });
  Sums sums{};
  for (const Sums& part : chunk_sums)
    for (std::size_t c = 0; c < trace::kCategoryCount; ++c)
      for (std::size_t k = 0; k < 3; ++k) sums[c][k].add(part[c][k]);
  const bool streams_measured_on_both = streaming_rates_measured(*from_) && streaming_rates_measured(*to_);
  for (std::size_t c = 0; c < trace::kCategoryCount; ++c) {
    const auto cat = static_cast<Category>(c);
    for (std::size_t k = 0; k < 3; ++k) {
      const Sum& sum = sums[c][k];
      if (sum.ops == 0) continue;
      const double measured_gbps = sum.bytes / sum.measured_ns, model_gbps = sum.bytes / sum.model_ns;
      // What the source node's values leave unexplained is carried to the target (the anchor): a
      // host effect, interference, or the model's own error on a resource the target has too.
      // Where the target's operations are bound by another link or memory technology, a
      // difference within the models' own error (kExplainedTolerance) or in the node's favour
      // belongs to the source's description and the source side takes the trace's own rate; so it
      // does for a wrong description (kMisdescribedFactor) and for a host without copy rates,
      // which describes no pageable regime.
      const double r = measured_gbps / model_gbps;
      const bool explained = r >= 1.0 - kExplainedTolerance;
      const bool misdescribed = r > kMisdescribedFactor || r < 1.0 / kMisdescribedFactor;
      // Copies within one GPU's memory (D2D, memsets) compete for nothing on a copy benchmark's
      // timeline. Against a datasheet peak, what they run below it is the memory's achieved rate
      // (ECC, the technology's efficiency), the source memory's, not something to carry to
      // another memory. Where both nodes give their GPUs' measured streaming rates, each side is
      // priced from a measurement, and what the copies run beside it is the copy kernel's own
      // (a D2D memcpy 0-5% above the triad on both the H100 and the H200): carried.
      const bool memory_bound = cat == Category::d2d || cat == Category::memset;
      const bool streams_measured = memory_bound && streams_measured_on_both;
      const bool technology = !is_pageable(cat) && !streams_measured && (explained || memory_bound);  // for the groups bound by another technology
      const bool collective = trace::is_collective(cat);
      if (collective && r < 1.0 / kMisdescribedFactor) {
        // Not the node: a rank's collective kernel runs until the last rank has finished, and the
        // ranks the trace does not time (or their launch skew) leave their wait in it.
        const bool waits_measured = !wait_ns_.empty();
        warnings_.push_back(fmt::format(
            "the trace's {} {} calls of at least {} ran at {:.3g} GB/s{} where source node '{}' ({}) gives {:.3g} "
            "GB/s: a collective kernel lasts until every rank has finished, so the rest is taken as waiting for "
            "ranks the trace {} and kept unchanged on the target; {}",
            sum.ops, to_string(cat), format_bytes_binary(static_cast<double>(kAnchorCheckMinBytes)), measured_gbps,
            waits_measured ? " after their wait for the recorded ranks" : "", from_->name, from_->file, model_gbps,
            waits_measured ? "does not time" : "has no record of",
            waits_measured ? "give every rank's trace to tell waiting from transfer"
                           : "give every rank's trace (a folder of a job's traces) to tell waiting from transfer"));
        carries_excess_[c] = true;
        continue;
      }
      if (!technology && !misdescribed && !sum.host_unpriced) continue;
      const model::HostRegime regime =
          cat == Category::h2d_pageable ? kH2dSlots[k] : cat == Category::d2h_pageable ? kD2hSlots[k] : model::HostRegime::staged;
      const std::string what = is_pageable(cat)
                                   ? fmt::format("{} copies ({} regime; the node's {})", to_string(cat), model::to_string(regime),
                                                 regime_key(regime))
                                   : fmt::format("{} operations", to_string(cat));
      if (!misdescribed && !sum.host_unpriced) {
        // Not a warning: the model's error on one technology, which the target does not share.
      } else if (sum.host_unpriced)
        warnings_.push_back(fmt::format(
            "source node '{}' ({}) gives its host no copy rates (copy_bandwidth_gbps and the pageable rates): the "
            "trace's {} {} of at least {} ({:.3g} GB/s) stand for the host on the source side",
            from_->name, from_->file, sum.ops, what, format_bytes_binary(static_cast<double>(kAnchorCheckMinBytes)),
            measured_gbps));
      else if (r > kImpossibleFactor && 2 * sum.unresolved <= sum.ops) {
        warnings_.push_back(fmt::format(
            "the trace's {} {} of at least {} ran at {:.3g} GB/s, over {:g} times the {:.3g} GB/s source node '{}' ({}) "
            "gives them: no node runs them so fast, so the recorded times are not the operations' own (a profiler "
            "that times an operation's enqueue, not its run); they are projected by the two nodes' ratio and not "
            "taken as the source's rate",
            sum.ops, what, format_bytes_binary(static_cast<double>(kAnchorCheckMinBytes)), measured_gbps, kImpossibleFactor,
            model_gbps, from_->name, from_->file));
        continue;
      } else if (misdescribed && 2 * sum.unresolved > sum.ops) {
        // Not the node: durations in whole microseconds (PyTorch 1.8's Kineto timed 465 of 466
        // memsets at 1 us) leave no time beyond the 1-byte cost, and the "rate" is 6 PB/s. Taken
        // as the source's rate it would re-price every group of the category and slot, the
        // operations timed well among them: no calibration from them.
        warnings_.push_back(fmt::format(
            "the trace's {} {} of at least {} last no longer than their 1-byte cost ({} on average; {} of them): "
            "its timer does not resolve them, so they tell nothing of source node '{}' ({}) and are not taken as "
            "its rate",
            sum.ops, what, format_bytes_binary(static_cast<double>(kAnchorCheckMinBytes)),
            format_duration_ns(sum.fixed_ns / static_cast<double>(sum.ops)), sum.unresolved, from_->name, from_->file));
        continue;
      } else if (misdescribed)
        warnings_.push_back(fmt::format(
            "source node '{}' ({}) looks mis-described for {}: the trace's {} of at least {} ran at {:.3g} GB/s where the "
            "node's values give {:.3g} GB/s; the projection takes the trace's rate on the source side",
            from_->name, from_->file, what, sum.ops, format_bytes_binary(static_cast<double>(kAnchorCheckMinBytes)),
            measured_gbps, model_gbps));
      // Self-calibration: the source side of this category and slot runs at the measured rate,
      // and so does the target where it prices the group exactly as the source does (a projection
      // onto the node the trace was recorded on keeps every measured time; a sweep's point that
      // changes another value keeps this group's). calibrate() applies it to each group's anchor.
      calibration_[c][k] = {true, misdescribed, sum.host_unpriced, r};
    }
  }
  for (std::size_t a = 0; a < anchors_.size(); ++a) calibrate(anchors_[a], kept_first[a]);
}

double Projector::anchor_source_fixed(const SidePricing& on_source) const {
  return model::charged_fixed_ns(on_source.transfer, src_fixed_[on_source.fixed_class].ns);
}

int Projector::anchor_slot(const Anchor& a, std::size_t i, double measured_ns, bool group) const {
  if (a.slots == 1) return 0;
  const bool fresh = fresh_destination(i);
  const bool h2d = index_->categories[i] == Category::h2d_pageable;
  // Slot 1 (warm source, fresh destination) is a candidate where the source node prices it or,
  // for a fresh destination, where the trace says so; a flagged copy prefers it on a tie.
  const bool slot1 = h2d ? a.warm_priced : (a.fresh_priced || fresh);
  const std::array<int, 3> order = fresh ? std::array<int, 3>{1, 0, 2} : std::array<int, 3>{0, 1, 2};
  int best = -1;
  double best_distance = std::numeric_limits<double>::infinity();
  for (const int k : order) {
    if (k == 1 && !slot1) continue;
    const double d = distance(measured_ns, a.pick[static_cast<std::size_t>(k)]);
    if (d < best_distance) {
      best = k;
      best_distance = d;
    }
  }
  if (best < 0) return 0;
  // A copy flagged fresh keeps its own regime; the others keep their group's unless their own time
  // says otherwise by kRegimeEvidence.
  if (!group || (fresh && best == 1) || best == a.group_slot) return best;
  const double group_distance = distance(measured_ns, a.pick[a.group_slot]);
  return group_distance <= kRegimeEvidence * best_distance ? a.group_slot : best;
}

double Projector::anchored_ns(std::size_t i, double measured_ns, const Sides* sides) const {
  Anchor scratch;
  const Anchor& a = anchor_of(i, scratch, sides);
  const double wait = wait_ns(i);
  const double own = measured_ns - wait;
  const auto k = static_cast<std::size_t>(anchor_slot(a, i, own));
  if (a.src[k] <= 0) return wait + a.tgt[k];
  const double excess = carried_excess_ns(a, i, own, k);
  return wait + excess + (own - excess) * a.tgt[k] / a.src[k];
}

double Projector::carried_excess_ns(const Anchor& a, std::size_t i, double own_ns, std::size_t k) const {
  if (a.carries_excess) return std::max(own_ns - a.src[0], 0.0);
  // Competition with a kernel stays on the target: what the source model leaves unexplained.
  if (beside_compute(i)) return std::max(own_ns - a.src[k], 0.0);
  return 0.0;
}

model::HostRegime Projector::regime(std::size_t i) const {
  const Category cat = index_->categories[i];
  if (!is_pageable(cat) || !trace::is_timed(trace_->durations()[i])) return model::HostRegime::staged;
  Anchor scratch;
  const auto k = static_cast<std::size_t>(
      anchor_slot(anchor_of(i, scratch), i, static_cast<double>(trace_->durations()[i])));
  return cat == Category::h2d_pageable ? kH2dSlots[k] : kD2hSlots[k];
}

std::string Projector::Bound::describe() const {
  switch (what) {
    case What::fixed_cost: return "fixed cost";
    case What::host_copy: return "host copy";
    case What::gpu_memory: return "GPU memory";
    case What::link: return link->describe();
    case What::waiting: return "waiting for other ranks";
  }
  return "";
}

Projector::Bound Projector::bound(std::size_t i, double total_ns) const {
  const OpKind kind = trace_->kinds()[i];
  static const model::Model& default_model = model::find_model("default");
  const double total = total_ns >= 0 ? total_ns : time_ns(i, default_model);
  const model::PathSpec* spec = nullptr;
  double bytes = static_cast<double>(trace_->bytes()[i]);
  if (trace::is_collective(kind)) {
    const nccl::RingPaths& g = groups_[trace_->group_ids()[i]];
    if (g.ring.empty()) return {};
    spec = &g.ring.front();
    for (const auto& p : g.ring)
      if (p.peak_gbps() < spec->peak_gbps()) spec = &p;
  } else {
    spec = &pair(trace_->srcs()[i], trace_->dsts()[i]).spec();
  }
  const Category cat = index_->categories[i];
  if (trace::is_collective(kind) && total > 0) {
    Anchor scratch;
    const Anchor& a = anchor_of(i, scratch);
    // What the anchor carries beyond the target model's own time is waiting (anchored_ns).
    if (!wait_ns_.empty() || a.carries_excess) {
      const double carried = total - a.tgt[0];
      if (2 * carried >= total) return {Bound::What::waiting};
    }
  }
  const double fixed = trace::is_collective(kind) ? 0.0 : fixed_ns(i, *spec);
  if (total <= 0 || fixed >= total - fixed) return {};
  if (spec->hops.empty()) return {Bound::What::gpu_memory};
  // The slowest hop at this size (path_effective_gbps's minimum, with its link).
  const auto [slowest, slowest_gbps] = slowest_hop(*spec, bytes);
  if (is_pageable(cat) && spec->host.copy_gbps > 0 &&
      spec->host.copy_gbps < slowest_gbps)
    return {Bound::What::host_copy};
  return {Bound::What::link, slowest};
}

double Projector::collective_time_ns(std::size_t i, const model::Model& m, bool source, bool anchor) const {
  const trace::Op op = trace_->op(i);
  const auto p2p = static_cast<std::size_t>(CopyClass::p2p);
  const double fixed = anchor || source ? src_fixed_[p2p].ns : fixed_[p2p].ns;
  return nccl::ring_time_ns(op.kind, trace_->group(op.group).size(), static_cast<double>(op.bytes),
                            (source ? src_groups_ : groups_)[op.group], m, fixed);
}

namespace {
const model::Model kMeasured{"measured", "nothing changes: each operation keeps its measured time on the source node",
                             &model::default_time_ns, &model::hop_effective_gbps, true, false,
                             &model::default_prepared_ns};
}  // namespace

const model::Model& measured_model() { return kMeasured; }

std::vector<const model::Model*> projection_models() {
  std::vector<const model::Model*> models;
  for (const model::Model& m : model::all_models()) models.push_back(&m);
  models.push_back(&kMeasured);
  return models;
}

const model::Model& find_projection_model(std::string_view name) {
  if (name == kMeasured.name) return kMeasured;
  for (const model::Model& m : model::all_models())
    if (m.name == name) return m;
  std::vector<std::string> names = model::model_names();
  names.emplace_back(kMeasured.name);
  throw InputError(unknown_name("model", name, names));
}

}  // namespace linkcast::projection
