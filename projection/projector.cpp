#include "projection/projector.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "core/error.hpp"
#include "core/strings.hpp"
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
  for (std::string_view part : split(text, ',')) {
    part = trim(part);
    const std::size_t eq = part.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == part.size())
      throw_map_error("", fmt::format("'{}' is not NAME=NAME; write e.g. gpu0=gpu2,gpu1=gpu3", part));
    const std::string from(trim(part.substr(0, eq))), to(trim(part.substr(eq + 1)));
    if (!map.emplace(from, to).second) throw_map_error("", fmt::format("'{}' is mapped twice", from));
  }
  return map;
}

int Projector::resolve(const topology::Node& node, const EndpointMap& map, std::uint16_t id,
                       std::uint16_t other) const {
  const std::string& name = mapped(map, trace_->endpoint_name(id));
  if (name != "host") return node.find(name);
  const std::string& other_name = mapped(map, trace_->endpoint_name(other));
  return topology::place_host(node, other_name == "host" ? -1 : node.find(other_name));
}

Projector::Projector(const topology::Node& from, const topology::Node& to, const Trace& trace,
                     const EndpointMap& map)
    : from_(&from), to_(&to), trace_(&trace), owned_index_(std::make_unique<trace::TraceIndex>(trace)),
      index_(owned_index_.get()), routes_(to, topology::Routes::Compute::on_demand), endpoints_(trace.endpoint_count()) {
  prepare(from, map);
}

Projector::Projector(const topology::Node& from, const topology::Node& to, const trace::TraceIndex& index,
                     const EndpointMap& map)
    : from_(&from), to_(&to), trace_(index.trace), index_(&index), routes_(to, topology::Routes::Compute::on_demand), endpoints_(index.trace->endpoint_count()) {
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
    if (from.find(name) < 0)
      throw InputError(fmt::format("{}: {}: endpoint '{}' is not in the source node '{}' ({}){}", trace.source_file,
                                   trace.describe_record(record), name, from.name, from.file,
                                   did_you_mean(name, from.endpoint_ids())));
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
  pairs_.resize(endpoints_ * endpoints_);
  for (const trace::TraceIndex::Use& u : index_->pairs) {
    PreparedPair& p = pairs_[static_cast<std::size_t>(u.src) * endpoints_ + u.dst];
    try {
      const int ts = resolve(to, map, u.src, u.dst), td = resolve(to, map, u.dst, u.src);
      p.spec = topology::make_path_spec(to, routes_, ts, td);
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}: {}: {}", trace.source_file, trace.describe_record(u.first_record), e.what()));
    }
    p.ready = true;
  }
  groups_.resize(trace.group_count());
  for (const auto& [group, record] : index_->groups) {
    nccl::RingPaths g;
    std::vector<int> targets;
    for (std::uint16_t m : trace.group(group)) targets.push_back(resolve(to, map, m, m));
    for (std::size_t k = 0; k < targets.size() && targets.size() > 1; ++k) {
      g.ring.push_back(topology::make_path_spec(to, routes_, targets[k], targets[(k + 1) % targets.size()]));
      if (k > 0) g.from_first.push_back(topology::make_path_spec(to, routes_, targets[0], targets[k]));
    }
    groups_[group] = std::move(g);
  }
  estimate_fixed_costs(from);
}

void Projector::estimate_fixed_costs(const topology::Node& from) {
  for (std::size_t c = 0; c < model::kCopyClassCount; ++c) {
    FixedCost& f = fixed_[c];
    const auto cls = static_cast<CopyClass>(c);
    if (index_->small_count[c] > 0) {
      f = {index_->small_median_ns[c],
           fmt::format("source trace: median of {} copies <= {} B", index_->small_count[c], trace::kSmallTransferBytes), true};
    } else if (const auto t = to_->calibration.get(cls)) {
      f = {*t, fmt::format("target node '{}' calibration", to_->name), true};
    } else if (const auto s = from.calibration.get(cls)) {
      f = {*s, fmt::format("source node '{}' calibration", from.name), true};
    }
  }
  // Classes still unknown borrow the closest known class, in order of likeness; else only the
  // links' latency is charged (in PathSpec) and the user is told.
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
  std::array<FixedCost, model::kCopyClassCount> resolved = fixed_;
  const FixedCost* any_known = nullptr;
  for (const FixedCost& f : fixed_)
    if (f.known && !any_known) any_known = &f;
  for (std::size_t c = 0; c < model::kCopyClassCount; ++c) {
    if (fixed_[c].known) continue;
    for (CopyClass alt : fallback[c]) {
      const FixedCost& a = fixed_[static_cast<std::size_t>(alt)];
      if (a.known) {
        resolved[c] = {a.ns, fmt::format("borrowed from {} ({})", model::to_string(alt), a.origin), true};
        break;
      }
    }
    if (!resolved[c].known && any_known)
      resolved[c] = {any_known->ns, fmt::format("borrowed ({})", any_known->origin), true};
    if (!resolved[c].known)
      resolved[c].origin = "unknown: no small transfers in the trace and no calibration in either node";
  }
  fixed_ = resolved;
  if (!any_known && !trace_->empty()) {
    warnings_.push_back(
        "no 1-byte transfer cost (L + O) is known: the trace has no transfers <= 64 B and neither node "
        "has `calibration:`; transfers are projected without a fixed cost (add calibration to a node file)");
  }
}

double Projector::time_ns(std::size_t i, const model::Model& m) const {
  const Category cat = index_->categories[i];
  const OpKind kind = trace_->kinds()[i];
  if (trace::is_collective(kind)) return collective_time_ns(i, m);
  const model::PathSpec& spec = pair(trace_->srcs()[i], trace_->dsts()[i]).spec;
  model::Transfer t = trace::transfer_of(trace_->op(i), spec.cls, is_pageable(cat));
  t.fixed_ns = fixed_ns(i, spec);
  return m.time_ns(spec, t);
}

double Projector::fixed_ns(std::size_t i, const model::PathSpec& spec) const {
  const Category cat = index_->categories[i];
  const auto cls = copy_class_of(cat);
  return fixed_[static_cast<std::size_t>(cls ? *cls : model::copy_class(spec.cls, is_pageable(cat)))].ns;
}

std::vector<double> Projector::group_times(const std::vector<const model::Model*>& models) const {
  std::vector<double> out(index_->group_first.size() * models.size());
  for (std::size_t g = 0; g < index_->group_first.size(); ++g)
    for (std::size_t m = 0; m < models.size(); ++m) out[g * models.size() + m] = time_ns(index_->group_first[g], *models[m]);
  return out;
}

std::string Projector::Bound::describe() const {
  switch (what) {
    case What::fixed_cost: return "fixed cost";
    case What::host_copy: return "host copy";
    case What::gpu_memory: return "GPU memory";
    case What::link: return link->describe();
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
    const nccl::RingPaths& g = groups_[trace_->op(i).group];
    if (g.ring.empty()) return {};
    spec = &g.ring.front();
    for (const auto& p : g.ring)
      if (p.peak_gbps() < spec->peak_gbps()) spec = &p;
  } else {
    spec = &pair(trace_->srcs()[i], trace_->dsts()[i]).spec;
  }
  const Category cat = index_->categories[i];
  const double fixed = trace::is_collective(kind) ? 0.0 : fixed_ns(i, *spec);
  if (total <= 0 || fixed >= total - fixed) return {};
  if (spec->hops.empty()) return {Bound::What::gpu_memory};
  // The slowest hop at this size (path_effective_gbps's minimum, with its link).
  const model::Access access = model::copy_access(spec->cls);
  const model::LinkSpec* slowest = nullptr;
  double slowest_gbps = std::numeric_limits<double>::infinity();
  for (const auto& hop : spec->hops) {
    const double g = model::effective_gbps(hop, bytes, access);
    if (g < slowest_gbps) {
      slowest = &hop;
      slowest_gbps = g;
    }
  }
  if (is_pageable(cat) && spec->host_copy_gbps > 0 &&
      spec->host_copy_gbps < slowest_gbps)
    return {Bound::What::host_copy};
  return {Bound::What::link, slowest};
}

double Projector::collective_time_ns(std::size_t i, const model::Model& m) const {
  const trace::Op op = trace_->op(i);
  return nccl::ring_time_ns(op.kind, trace_->group(op.group).size(), static_cast<double>(op.bytes),
                            groups_[op.group], m, fixed_[static_cast<std::size_t>(CopyClass::p2p)].ns);
}

}  // namespace linkcast::projection
