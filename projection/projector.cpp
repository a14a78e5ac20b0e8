#include "projection/projector.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/strings.hpp"

namespace linkcast::projection {

using topology::CopyClass;
using topology::EndpointKind;
using workloads::OpKind;
using workloads::Trace;

EndpointMap parse_endpoint_map(std::string_view text) {
  EndpointMap map;
  if (trim(text).empty()) return map;
  for (std::string_view part : split(text, ',')) {
    part = trim(part);
    const std::size_t eq = part.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == part.size())
      throw InputError(fmt::format("--map: '{}' is not NAME=NAME; write e.g. --map gpu0=gpu2,gpu1=gpu3", part));
    const std::string from(trim(part.substr(0, eq))), to(trim(part.substr(eq + 1)));
    if (!map.emplace(from, to).second) throw InputError(fmt::format("--map: '{}' is mapped twice", from));
  }
  return map;
}

namespace {

/// Operations of at most this many bytes measure the 1-byte cost (L + O): below ~64 B the
/// bandwidth term is under 1% of the ~1-2 us fixed cost on every node we ship. Memsets are
/// kernels: their fixed cost is a launch, measured the same way on small memsets.
constexpr std::uint64_t kSmallTransferBytes = 64;

CopyClass class_of_path(model::PathClass cls, bool pageable) {
  switch (cls) {
    case model::PathClass::h2d: return pageable ? CopyClass::h2d_pageable : CopyClass::h2d_pinned;
    case model::PathClass::d2h: return pageable ? CopyClass::d2h_pageable : CopyClass::d2h_pinned;
    case model::PathClass::d2d: return CopyClass::d2d;
    case model::PathClass::p2p: return CopyClass::p2p;
    case model::PathClass::h2h: return CopyClass::h2h;
  }
  return CopyClass::p2p;
}

}  // namespace

int Projector::resolve(const topology::Node& node, const EndpointMap& map, std::uint16_t id,
                       std::uint16_t other) const {
  std::string name = trace_->endpoint_name(id);
  if (const auto it = map.find(name); it != map.end()) name = it->second;
  if (name != "host") return node.find(name);
  // A host the recording did not place: the socket of the GPU at the other end (its NUMA
  // affinity), else the first CPU.
  std::string other_name = trace_->endpoint_name(other);
  if (const auto it = map.find(other_name); it != map.end()) other_name = it->second;
  const int g = node.find(other_name);
  if (g >= 0 && node.endpoints[static_cast<std::size_t>(g)].kind == EndpointKind::gpu)
    return node.endpoints[static_cast<std::size_t>(g)].host;
  const auto cpus = node.cpus();
  return cpus.empty() ? -1 : cpus.front();
}

Projector::Projector(const topology::Node& from, const topology::Node& to, const Trace& trace,
                     const EndpointMap& map)
    : from_(&from), to_(&to), trace_(&trace), routes_(to), endpoints_(trace.endpoint_count()) {
  for (const auto& [name, target] : map) {
    const auto& names = trace.endpoint_names();
    if (std::find(names.begin(), names.end(), name) == names.end())
      warnings_.push_back(fmt::format("--map {}={}: the trace has no endpoint '{}'", name, target, name));
    if (to.find(target) < 0)
      throw InputError(fmt::format("--map {}={}: node '{}' ({}) has no endpoint '{}'{}", name, target, to.name,
                                   to.file, target, did_you_mean(target, to.endpoint_ids())));
  }
  // Which trace endpoints exist on each node.
  auto check_endpoint = [&](std::uint16_t id, std::size_t record) {
    const std::string& name = trace.endpoint_name(id);
    if (name == "host") return;
    if (from.find(name) < 0)
      throw InputError(fmt::format("{}: {}: endpoint '{}' is not in the source node '{}' ({}){}", trace.source_file,
                                   trace.describe_record(record), name, from.name, from.file,
                                   did_you_mean(name, from.endpoint_ids())));
    std::string mapped = name;
    if (const auto it = map.find(name); it != map.end()) mapped = it->second;
    if (to.find(mapped) < 0)
      throw InputError(fmt::format("{}: {}: endpoint '{}' is not in the target node '{}' ({}); map it onto one "
                                   "that is with --map {}=<endpoint> (target has {})",
                                   trace.source_file, trace.describe_record(record), mapped, to.name, to.file, name,
                                   join(to.endpoint_ids(), ", ")));
  };
  std::vector<char> checked(endpoints_, 0);
  categories_.resize(trace.size());
  pairs_.resize(endpoints_ * endpoints_);
  groups_.resize(trace.group_count());
  std::vector<char> group_ready(trace.group_count(), 0);
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const std::uint16_t s = trace.srcs()[i], d = trace.dsts()[i];
    for (std::uint16_t e : {s, d}) {
      if (!checked[e]) {
        check_endpoint(e, i);
        checked[e] = 1;
      }
    }
    categories_[i] = categorize(trace, i);
    const workloads::Op op = trace.op(i);
    if (workloads::is_collective(op.kind)) {
      if (!group_ready[op.group]) {
        const auto& members = trace.group(op.group);
        PreparedGroup g;
        std::vector<int> targets;
        for (std::uint16_t m : members) {
          if (!checked[m]) {
            check_endpoint(m, i);
            checked[m] = 1;
          }
          targets.push_back(resolve(to, map, m, m));
        }
        for (std::size_t k = 0; k < targets.size() && targets.size() > 1; ++k) {
          g.ring.push_back(topology::make_path_spec(to, routes_, targets[k], targets[(k + 1) % targets.size()]));
          if (k > 0) g.from_first.push_back(topology::make_path_spec(to, routes_, targets[0], targets[k]));
        }
        groups_[op.group] = std::move(g);
        group_ready[op.group] = 1;
      }
      continue;
    }
    PreparedPair& p = pairs_[static_cast<std::size_t>(s) * endpoints_ + d];
    if (!p.ready) {
      const int ts = resolve(to, map, s, d), td = resolve(to, map, d, s);
      try {
        p.spec = topology::make_path_spec(to, routes_, ts, td);
      } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}: {}", trace.source_file, trace.describe_record(i), e.what()));
      }
      p.ready = true;
    }
  }
  estimate_fixed_costs(from);
}

void Projector::estimate_fixed_costs(const topology::Node& from) {
  // Median duration of the trace's small transfers, per copy class.
  std::array<std::vector<std::int64_t>, topology::kCopyClassCount> small;
  for (std::size_t i = 0; i < trace_->size(); ++i) {
    const OpKind kind = trace_->kinds()[i];
    if ((kind != OpKind::copy && kind != OpKind::memset) || trace_->bytes()[i] > kSmallTransferBytes) continue;
    const std::int64_t d = trace_->durations()[i];
    if (d <= 0) continue;
    const auto cls = copy_class_of(categories_[i]);
    if (cls) small[static_cast<std::size_t>(*cls)].push_back(d);
  }
  for (std::size_t c = 0; c < topology::kCopyClassCount; ++c) {
    FixedCost& f = fixed_[c];
    auto& v = small[c];
    const auto cls = static_cast<CopyClass>(c);
    if (!v.empty()) {
      std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
      f = {static_cast<double>(v[v.size() / 2]),
           fmt::format("source trace: median of {} copies <= {} B", v.size(), kSmallTransferBytes), true};
    } else if (const auto t = to_->calibration.get(cls)) {
      f = {*t, fmt::format("target node '{}' calibration", to_->name), true};
    } else if (const auto s = from.calibration.get(cls)) {
      f = {*s, fmt::format("source node '{}' calibration", from.name), true};
    }
  }
  // Classes still unknown borrow the closest known class, in order of likeness; else only the
  // links' latency is charged (in PathSpec) and the user is told.
  const std::array<std::array<CopyClass, 4>, topology::kCopyClassCount> fallback = {{
      {CopyClass::h2d_pageable, CopyClass::d2h_pinned, CopyClass::p2p, CopyClass::d2d},   // h2d_pinned
      {CopyClass::h2d_pinned, CopyClass::d2h_pageable, CopyClass::d2h_pinned, CopyClass::p2p},
      {CopyClass::d2h_pageable, CopyClass::h2d_pinned, CopyClass::p2p, CopyClass::d2d},   // d2h_pinned
      {CopyClass::d2h_pinned, CopyClass::h2d_pageable, CopyClass::h2d_pinned, CopyClass::p2p},
      {CopyClass::p2p, CopyClass::h2d_pinned, CopyClass::d2h_pinned, CopyClass::h2h},     // d2d
      {CopyClass::d2d, CopyClass::d2h_pinned, CopyClass::h2d_pinned, CopyClass::h2h},     // p2p
      {CopyClass::h2d_pinned, CopyClass::d2h_pinned, CopyClass::d2d, CopyClass::p2p},     // h2h
      {CopyClass::d2d, CopyClass::p2p, CopyClass::h2d_pinned, CopyClass::d2h_pinned},     // memset
  }};
  std::array<FixedCost, topology::kCopyClassCount> resolved = fixed_;
  const FixedCost* any_known = nullptr;
  for (const FixedCost& f : fixed_)
    if (f.known && !any_known) any_known = &f;
  for (std::size_t c = 0; c < topology::kCopyClassCount; ++c) {
    if (fixed_[c].known) continue;
    for (CopyClass alt : fallback[c]) {
      const FixedCost& a = fixed_[static_cast<std::size_t>(alt)];
      if (a.known) {
        resolved[c] = {a.ns, fmt::format("borrowed from {} ({})", topology::to_string(alt), a.origin), true};
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
  const Category cat = categories_[i];
  const OpKind kind = trace_->kinds()[i];
  if (workloads::is_collective(kind)) return collective_time_ns(i, m);
  const std::uint16_t s = trace_->srcs()[i], d = trace_->dsts()[i];
  const model::PathSpec& spec = pair(s, d).spec;
  model::Transfer t;
  t.bytes = static_cast<double>(trace_->bytes()[i]);
  const bool pageable = cat == Category::h2d_pageable || cat == Category::d2h_pageable;
  t.pageable = pageable;
  t.access = model::copy_access(spec.cls);
  if (kind == OpKind::access) {
    // Device-initiated: a load pulls data to the issuer (read); a store pushes it (write).
    const std::uint16_t issuer = trace_->op(i).issuer;
    t.access = issuer == s ? model::Access::write : model::Access::read;
    t.request_bytes = std::min(t.bytes, 128.0);  // one warp's coalesced 32 x 4 B request
  }
  if (kind == OpKind::memset) t.write_only = true;
  const auto cls = copy_class_of(cat);
  t.fixed_ns = fixed_[static_cast<std::size_t>(cls ? *cls : class_of_path(spec.cls, pageable))].ns;
  return m.time_ns(spec, t);
}

double Projector::collective_time_ns(std::size_t i, const model::Model& m) const {
  const workloads::Op op = trace_->op(i);
  const PreparedGroup& g = groups_[op.group];
  const auto n = static_cast<double>(trace_->group(op.group).size());
  if (g.ring.empty() || n < 2) return 0.0;
  const double fixed = fixed_[static_cast<std::size_t>(CopyClass::p2p)].ns;
  const double bytes = static_cast<double>(op.bytes);
  // Slowest ring edge for a step of `step_bytes` (steps are synchronous around the ring).
  auto step = [&](double step_bytes, const std::vector<model::PathSpec>& paths) {
    model::Transfer t;
    t.bytes = step_bytes;
    t.access = model::Access::write;
    t.fixed_ns = fixed;
    double worst = 0;
    for (const auto& p : paths) worst = std::max(worst, m.time_ns(p, t));
    return worst;
  };
  // NCCL ring algorithms (bytes counted as nccl-tests does):
  //   allreduce: reduce-scatter + all-gather, 2(n-1) steps of S/n;
  //   allgather (S = output) and reducescatter (S = input): n-1 steps of S/n;
  //   broadcast/reduce: the S bytes pipelined around the ring, n-1 hops of latency;
  //   alltoall (S = one rank's send buffer): n-1 exchanges of S/n.
  switch (op.kind) {
    case OpKind::allreduce: return 2.0 * (n - 1.0) * step(bytes / n, g.ring);
    case OpKind::allgather:
    case OpKind::reducescatter: return (n - 1.0) * step(bytes / n, g.ring);
    case OpKind::broadcast:
    case OpKind::reduce: return step(bytes, g.ring) + (n - 2.0) * fixed;
    case OpKind::alltoall: return (n - 1.0) * step(bytes / n, g.from_first);
    default: return 0.0;
  }
}

}  // namespace linkcast::projection
