#include "sim/render.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>

#include "core/error.hpp"
#include "core/json.hpp"
#include "core/progress.hpp"
#include "core/table.hpp"
#include "core/units.hpp"
#include "core/wmape.hpp"
#include "topology/routing.hpp"

namespace linkcast::sim {

using trace::OpKind;

namespace {

const std::string& ep_name(const topology::Node& node, int e) {
  static const std::string none = "-";
  return e >= 0 ? node.endpoints[static_cast<std::size_t>(e)].id : none;
}

/// The class an operation is reported under: the copy class by where its ends are on the
/// node, or its kind. As a number (op_class_name gives its name), counted per operation.
struct OpClass {
  OpKind kind;
  int path = -1;  // copies with both ends on the node: their model::PathClass
  bool pageable = false;  // h2d and d2h copies: the host end is pageable
  auto operator<=>(const OpClass&) const = default;
};
OpClass op_class(const topology::Node& node, const trace::Trace& trace, const SimResult& r, std::size_t i) {
  const OpKind kind = trace.kinds()[i];
  const OpResult& o = r.ops[i];
  if (kind != OpKind::copy || o.src < 0 || o.dst < 0) return {kind};
  const auto cls = topology::path_class(node, o.src, o.dst);
  const bool pageable = (cls == model::PathClass::h2d || cls == model::PathClass::d2h) &&
                        (trace.src_mems()[i] == model::MemKind::pageable || trace.dst_mems()[i] == model::MemKind::pageable);
  return {kind, static_cast<int>(cls), pageable};
}
std::string op_class_name(const OpClass& c) {
  if (c.path < 0) return std::string(trace::to_string(c.kind));
  const auto cls = static_cast<model::PathClass>(c.path);
  std::string name(model::to_string(cls));
  if (cls == model::PathClass::h2d || cls == model::PathClass::d2h) name += c.pageable ? " pageable" : " pinned";
  return name;
}

double seconds(double ns) { return ns * 1e-9; }

/// The application replay: span and steps, recorded against replayed; where the time went.
void render_application(const trace::Trace& trace, const ApplicationResult& a, std::ostream& out) {
  const std::string polls = a.poll_runs ? fmt::format(" ({} of them polls)", a.poll_runs) : std::string();
  out << fmt::format("Application replay: span {} recorded, {} replayed ({}); inferred {} launches, {} blocking "
                     "calls{}, {} waits across streams, {} wake-ups across threads, {} GPU-filling kernels or copies "
                     "({} waits for their SMs)\n",
                     format_duration_ns(a.recorded_span_ns), format_duration_ns(a.replayed_span_ns),
                     format_change_pct(a.replayed_span_ns, a.recorded_span_ns, 2), a.launch_links, a.blocking_calls,
                     polls, a.cross_stream_waits, a.wakeups, a.gpu_filling, a.sm_waits);
  using A = TextTable::Align;
  auto breakdown_cells = [](const ApplicationResult::Breakdown& b, double total) {
    return std::vector<std::string>{format_share_ns(b.compute_ns, total), format_share_ns(b.transfers_ns, total),
                                    format_share_ns(b.collectives_ns, total), format_share_ns(b.cpu_ns, total),
                                    format_share_ns(b.launch_ns + b.sync_ns + b.other_ns, total)};
  };
  TextTable steps({"step", "recorded", "replayed", "change", "compute", "exposed transfers", "exposed collectives",
                   "CPU-bound", "launch/sync/waits"},
                  {A::left, A::right, A::right, A::right, A::right, A::right, A::right, A::right, A::right});
  double rec = 0, rep = 0;
  for (const auto& s : a.job_steps()) {
    std::vector<std::string> row{s.name, format_duration_ns(s.recorded_ns), format_duration_ns(s.replayed_ns),
                                 format_change_pct(s.replayed_ns, s.recorded_ns, 2)};
    for (auto& c : breakdown_cells(s.breakdown, s.replayed_ns)) row.push_back(std::move(c));
    steps.add_row(std::move(row));
    rec += s.recorded_ns;
    rep += s.replayed_ns;
  }
  if (!a.steps.empty()) {
    steps.add_rule();
    steps.add_row({"all steps", format_duration_ns(rec), format_duration_ns(rep), format_change_pct(rep, rec, 2), "", "", "", "", ""});
  }
  std::vector<std::string> whole{"whole span", format_duration_ns(a.recorded_span_ns),
                                 format_duration_ns(a.replayed_span_ns), format_change_pct(a.replayed_span_ns, a.recorded_span_ns, 2)};
  for (auto& c : breakdown_cells(a.breakdown, a.replayed_span_ns)) whole.push_back(std::move(c));
  steps.add_row(std::move(whole));
  out << "Critical path (what the last operation to finish waited for, back to the start):\n" << steps.render();
  if (!a.top.empty()) {
    TextTable top({"on the critical path", "kind", "time"}, {A::left, A::left, A::right});
    for (const auto& c : a.top) {
      std::string name = trace.op_names[trace.names()[c.record]];
      if (name.empty()) name = fmt::format("{} {}", trace::to_string(trace.kinds()[c.record]), format_bytes(trace.bytes()[c.record]));
      if (name.size() > 70) name = name.substr(0, 67) + "...";
      top.add_row({name, std::string(trace::to_string(trace.kinds()[c.record])), format_duration_ns(c.ns)});
    }
    out << top.render();
  }
  out << "\n";
}

/// JSON has no infinity: a simulation whose times overflowed is refused, naming the operation.
void check_finite(const SimResult& r, std::string_view what) {
  if (!std::isfinite(r.makespan_ns))
    throw InputError(fmt::format("{}: the simulated makespan is not a finite number ({} ns); an input value makes it "
                                 "overflow: check the node's and the trace's values",
                                 what, r.makespan_ns));
  for (std::size_t i = 0; i < r.ops.size(); ++i)
    if (!std::isfinite(r.ops[i].start_ns) || !std::isfinite(r.ops[i].end_ns))
      throw InputError(fmt::format("{}: operation {} has no finite simulated time; an input value makes it overflow",
                                   what, i + 1));
}

}  // namespace

std::string link_name(const topology::Node& node, const LinkResult& l) {
  return fmt::format("{}->{}", ep_name(node, l.from), ep_name(node, l.to));
}

double wmape_vs_measured(const trace::Trace& trace, const SimResult& r, std::size_t* matched) {
  ErrorSum error;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const std::int64_t d = trace.durations()[i];
    if (d > 0) error.add(static_cast<double>(d), r.ops[i].end_ns - r.ops[i].start_ns);
  }
  if (matched) *matched = error.count;
  return error.wmape();
}

nlohmann::json breakdown_json(const ApplicationResult::Breakdown& b) {
  return {{"compute_ns", b.compute_ns},
          {"exposed_transfers_ns", b.transfers_ns},
          {"exposed_collectives_ns", b.collectives_ns},
          {"cpu_ns", b.cpu_ns},
          {"launch_sync_waits_ns", b.launch_ns + b.sync_ns + b.other_ns}};
}

nlohmann::json application_json(const ApplicationResult& a) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& s : a.job_steps())
    steps.push_back({{"name", s.name},
                     {"recorded_s", seconds(s.recorded_ns)},
                     {"replayed_s", seconds(s.replayed_ns)},
                     {"critical_path", breakdown_json(s.breakdown)}});
  return {{"recorded_span_s", seconds(a.recorded_span_ns)},
          {"replayed_span_s", seconds(a.replayed_span_ns)},
          {"critical_path", breakdown_json(a.breakdown)},
          {"steps", steps}};
}

void render_json(const topology::Node& node, const trace::Trace& trace, const SimResult& r, std::ostream& out) {
  using nlohmann::json;
  check_finite(r, "simulation JSON");
  // Operations are streamed (a trace may hold millions); the rest goes through nlohmann::json.
  fmt::memory_buffer buf;
  auto it = std::back_inserter(buf);
  fmt::format_to(it, "{{\n  \"makespan_s\": {},\n  \"node\": {},\n  \"trace\": {},\n  \"model\": {},\n  \"solver\": {},\n",
                 json_number(seconds(r.makespan_ns), "makespan_s"), json_string(node.name), json_string(trace.source_file),
                 json_string(r.model), json_string(r.solver));
  fmt::format_to(it, "  \"ops\": [");
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const OpResult& o = r.ops[i];
    const trace::Op op = trace.op(i);
    fmt::format_to(it, "{}\n    {{\"index\": {}, \"kind\": \"{}\", \"src\": {}, \"dst\": {}, \"bytes\": {}, \"stream\": {}, "
                       "\"start_s\": {}, \"end_s\": {}, \"duration_s\": {}",
                   i == 0 ? "" : ",", i, trace::to_string(op.kind), json_string(ep_name(node, o.src)),
                   json_string(ep_name(node, o.dst)), op.bytes, op.stream, json_number(seconds(o.start_ns), "start_s"),
                   json_number(seconds(o.end_ns), "end_s"), json_number(seconds(o.end_ns - o.start_ns), "duration_s"));
    if (op.duration_ns > 0) fmt::format_to(it, ", \"measured_s\": {}", json_number(seconds(static_cast<double>(op.duration_ns)), "measured_s"));
    if (o.collective >= 0) fmt::format_to(it, ", \"collective\": {}", o.collective);
    fmt::format_to(it, "}}");
  }
  fmt::format_to(it, "{}],\n", trace.empty() ? "" : "\n  ");
  if (r.application.replayed)
    fmt::format_to(it, "  \"application\": {},\n", dump_json(application_json(r.application), -1, "simulation JSON, application"));

  json collectives = json::array();
  for (std::size_t k = 0; k < r.collectives.size(); ++k) {
    const CollectiveResult& c = r.collectives[k];
    json gpus = json::array();
    for (int g : c.gpus) gpus.push_back(ep_name(node, g));
    json rings = json::array();
    for (const nccl::RingPart& part : c.parts) {
      json names = json::array();
      for (int rank : part.ring) names.push_back(ep_name(node, c.gpus[static_cast<std::size_t>(rank)]));
      rings.push_back(names);
    }
    collectives.push_back({{"index", k},
                           {"kind", trace::to_string(c.kind)},
                           {"comm", c.comm},
                           {"gpus", gpus},
                           {"bytes", c.bytes},
                           {"algo", nccl::to_string(c.algo)},
                           {"proto", nccl::to_string(c.proto)},
                           {"channels", c.channels},
                           {"transfers", c.transfers},
                           {"start_s", seconds(c.start_ns)},
                           {"end_s", seconds(c.end_ns)},
                           {"time_s", seconds(c.end_ns - c.start_ns)},
                           {"nccl_model_s", seconds(c.nccl_model.time_ns)},
                           {"nccl_graph", {{"channels", c.graph.channels},
                                           {"bw_per_channel_gbps", c.graph.bw_per_channel_gbps},
                                           {"nvlink", c.graph.nvlink}}},
                           {"rings", rings}});
  }
  json links = json::array();
  for (const LinkResult& l : r.links) {
    const auto& link = node.links[static_cast<std::size_t>(l.link)];
    links.push_back({{"link", link.id},
                     {"from", ep_name(node, l.from)},
                     {"to", ep_name(node, l.to)},
                     {"capacity_gbps", l.capacity_gbps},
                     {"bytes", l.data_bytes},
                     {"wire_bytes", l.wire_bytes},
                     {"utilisation", l.utilisation},
                     {"peak_utilisation", l.peak_utilisation},
                     {"utilisation_bins", l.bins}});
  }
  json endpoints = json::array();
  for (int e : r.matrix_endpoints) endpoints.push_back(ep_name(node, e));
  std::size_t matched = 0;
  const double wmape = wmape_vs_measured(trace, r, &matched);
  json stats = {{"tasks", r.tasks}, {"flows", r.flows}, {"events", r.events}, {"solves", r.solves}};
  if (matched > 0) {
    stats["measured_ops"] = matched;
    stats["wmape_vs_measured_percent"] = wmape;
  }
  fmt::format_to(it, "  \"collectives\": {},\n  \"links\": {},\n  \"matrix\": {},\n  \"stats\": {},\n  \"warnings\": {}\n}}\n",
                 dump_json(collectives, -1, "simulation JSON, collectives"), dump_json(links, -1, "simulation JSON, links"),
                 dump_json(json{{"endpoints", endpoints}, {"bytes", r.matrix}}, -1, "simulation JSON, matrix"),
                 dump_json(stats, -1, "simulation JSON, stats"), dump_json(json(r.warnings), -1, "simulation JSON"));
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

void render_table(const topology::Node& node, const trace::Trace& trace, const SimResult& r, std::ostream& out) {
  out << fmt::format("node {} ({}), trace {} ({} operations), model {}, solver {}\n", node.name, node.file,
                     trace.source_file.empty() ? "-" : trace.source_file, trace.size(), r.model, r.solver);
  out << fmt::format("makespan: {}\n\n", format_duration_ns(r.makespan_ns));
  if (r.application.replayed) render_application(trace, r.application, out);

  // By class.
  struct Row {
    std::size_t ops = 0, measured_ops = 0;
    double bytes = 0, sim_ns = 0, measured_ns = 0, sim_of_measured_ns = 0;
  };
  // A few classes (kinds and path classes): found by a scan, which beats a tree where
  // consecutive operations differ.
  std::vector<std::pair<OpClass, Row>> by_class_key;
  const auto row_of = [&](const OpClass& key) -> Row& {
    for (auto& [k, row] : by_class_key)
      if (k == key) return row;
    return by_class_key.emplace_back(key, Row{}).second;
  };
  for (std::size_t i = 0; i < trace.size(); ++i) {
    Row& row = row_of(op_class(node, trace, r, i));
    const double sim = r.ops[i].end_ns - r.ops[i].start_ns;
    ++row.ops;
    row.bytes += static_cast<double>(trace.bytes()[i]);
    row.sim_ns += sim;
    if (trace::is_timed(trace.durations()[i])) {
      ++row.measured_ops;
      row.measured_ns += static_cast<double>(trace.durations()[i]);
      row.sim_of_measured_ns += sim;
    }
  }
  std::map<std::string, Row> rows;  // by name: the table's order
  for (const auto& [key, row] : by_class_key) rows[op_class_name(key)] = row;  // one name per key
  using A = TextTable::Align;
  TextTable by_class({"class", "ops", "bytes", "simulated (sum)", "measured (sum)", "sim/measured"},
                     {A::left, A::right, A::right, A::right, A::right, A::right});
  for (const auto& [name, row] : rows) {
    by_class.add_row({name, std::to_string(row.ops), format_bytes(row.bytes), format_duration_ns(row.sim_ns),
                      // Where some operations have no recorded time (a Quadro GP100 trace timed 1 of 10
                      // copies), the sum and the ratio are over the timed ones, and the cell says so.
                      row.measured_ops == 0         ? "-"
                      : row.measured_ops == row.ops ? format_duration_ns(row.measured_ns)
                                                    : fmt::format("{} ({} of {} timed)", format_duration_ns(row.measured_ns),
                                                                  row.measured_ops, row.ops),
                      row.measured_ops ? fmt::format("{:.3f}", row.sim_of_measured_ns / row.measured_ns) : "-"});
  }
  out << by_class.render();
  std::size_t matched = 0;
  const double wmape = wmape_vs_measured(trace, r, &matched);
  if (matched > 0) out << fmt::format("WMAPE of simulated vs measured durations: {:.1f}% over {} operations\n", wmape, matched);

  if (!r.collectives.empty()) {
    out << "\nCollectives (simulated beside NCCL's own cost model, src/graph/tuning.cc):\n";
    TextTable coll({"#", "kind", "GPUs", "size", "algo/proto", "channels", "simulated", "nccl-model", "sim/nccl"},
                   {A::right, A::left, A::right, A::right, A::left, A::right, A::right, A::right, A::right});
    constexpr std::size_t kShown = 20;
    for (std::size_t k = 0; k < r.collectives.size() && k < kShown; ++k) {
      const CollectiveResult& c = r.collectives[k];
      const double sim = c.end_ns - c.start_ns;
      coll.add_row({std::to_string(k), std::string(trace::to_string(c.kind)), std::to_string(c.gpus.size()),
                    format_bytes(c.bytes), fmt::format("{}/{}", nccl::to_string(c.algo), nccl::to_string(c.proto)),
                    std::to_string(c.channels), format_duration_ns(sim), format_duration_ns(c.nccl_model.time_ns),
                    c.nccl_model.time_ns > 0 ? fmt::format("{:.3f}", sim / c.nccl_model.time_ns) : "-"});
    }
    out << coll.render();
    if (r.collectives.size() > kShown) out << fmt::format("... and {} more (--format json lists all)\n", r.collectives.size() - kShown);
  }

  if (!r.links.empty()) {
    std::vector<const LinkResult*> links;
    for (const auto& l : r.links) links.push_back(&l);
    std::stable_sort(links.begin(), links.end(),
                     [](const LinkResult* a, const LinkResult* b) { return a->utilisation > b->utilisation; });
    constexpr std::size_t kShown = 10;
    out << fmt::format("\nBusiest links ({} of {} directions that carried data):\n", std::min(kShown, links.size()),
                       links.size());
    TextTable lt({"link", "GB/s", "data", "utilisation", "peak"}, {A::left, A::right, A::right, A::right, A::right});
    for (std::size_t k = 0; k < links.size() && k < kShown; ++k) {
      const LinkResult& l = *links[k];
      lt.add_row({link_name(node, l), fmt::format("{:.1f}", l.capacity_gbps), format_bytes(l.data_bytes),
                  fmt::format("{:.1f}%", 100 * l.utilisation), fmt::format("{:.1f}%", 100 * l.peak_utilisation)});
    }
    out << lt.render();
  }
  out << fmt::format("\n{} tasks, {} flows, {} events, {} solves\n", r.tasks, r.flows, r.events, r.solves);
}

namespace {

/// The timeline's events, one at a time, into `buf`; the operations kept and the time they span.
class TimelineWriter {
 public:
  TimelineWriter(const topology::Node& node, const trace::Trace& trace, const SimResult& r, std::size_t max_ops)
      : node_(node), trace_(trace), r_(r), links_pid_(static_cast<int>(node.endpoints.size()) + 1) {
    // The first `max_ops` operations by start time, in record order; the rest of the timeline
    // (collective transfers, link counters) up to the last one's end.
    if (max_ops == 0 || max_ops >= trace.size()) {
      ops_.resize(trace.size());
      for (std::size_t i = 0; i < ops_.size(); ++i) ops_[i] = i;
      end_ns_ = std::numeric_limits<double>::infinity();
    } else {
      ops_.resize(trace.size());
      for (std::size_t i = 0; i < ops_.size(); ++i) ops_[i] = i;
      std::nth_element(ops_.begin(), ops_.begin() + static_cast<std::ptrdiff_t>(max_ops), ops_.end(),
                       [&](std::size_t a, std::size_t b) {
                         return std::pair(r.ops[a].start_ns, a) < std::pair(r.ops[b].start_ns, b);
                       });
      ops_.resize(max_ops);
      std::sort(ops_.begin(), ops_.end());
      end_ns_ = 0;
      for (std::size_t i : ops_) end_ns_ = std::max(end_ns_, r.ops[i].end_ns);
    }
    for (const TransferRecord& t : r.transfers)
      if (t.start_ns < end_ns_) ++transfers_;
    for (const LinkResult& l : r.links)
      for (const auto& p : l.series) counters_ += p.t_ns < end_ns_ ? 1 : 0;
  }

  const std::vector<std::size_t>& ops() const { return ops_; }
  std::size_t transfers() const { return transfers_; }
  std::size_t counters() const { return counters_; }

  void header(fmt::memory_buffer& buf) {
    fmt::format_to(std::back_inserter(buf),
                   "{{\"displayTimeUnit\": \"ns\", \"otherData\": {{\"node\": {}, \"trace\": {}, \"model\": {}}},\n"
                   "\"traceEvents\": [\n",
                   json_string(node_.name), json_string(trace_.source_file), json_string(r_.model));
    // Processes: devices, then the links.
    for (std::size_t e = 0; e < node_.endpoints.size(); ++e) {
      sep(buf);
      fmt::format_to(std::back_inserter(buf),
                     "{{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": {}, \"args\": {{\"name\": {}}}}}", e + 1,
                     json_string(node_.endpoints[e].id));
    }
    sep(buf);
    fmt::format_to(std::back_inserter(buf),
                   "{{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": {}, \"args\": {{\"name\": \"links (GB/s)\"}}}}",
                   links_pid_);
  }

  /// Operations: one track per stream of the issuing device.
  void op(fmt::memory_buffer& buf, std::size_t i) {
    auto it = std::back_inserter(buf);
    const OpResult& o = r_.ops[i];
    const trace::Op op = trace_.op(i);
    const int pid = o.issuer + 1;
    if (!named_[{pid, op.stream}]) {
      named_[{pid, op.stream}] = true;
      sep(buf);
      fmt::format_to(it, "{{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": {}, \"tid\": {}, \"args\": {{\"name\": \"stream {}\"}}}}",
                     pid, op.stream, op.stream);
    }
    sep(buf);
    const std::string name = trace::is_collective(op.kind)
                                 ? fmt::format("{} {}", trace::to_string(op.kind), format_bytes(op.bytes))
                                 : fmt::format("{} {} {}->{}", trace::to_string(op.kind), format_bytes(op.bytes),
                                               ep_name(node_, o.src), ep_name(node_, o.dst));
    fmt::format_to(it, "{{\"name\": {}, \"cat\": \"{}\", \"ph\": \"X\", \"pid\": {}, \"tid\": {}, \"ts\": {:.3f}, \"dur\": {:.3f}, "
                       "\"args\": {{\"record\": {}, \"bytes\": {}}}}}",
                   json_string(name), trace::to_string(op.kind), pid, op.stream, us(o.start_ns),
                   us(o.end_ns - o.start_ns), i + 1, op.bytes);
  }

  /// Collective transfers: one track per NCCL channel on the sending device.
  void transfer(fmt::memory_buffer& buf, const TransferRecord& t) {
    if (t.start_ns >= end_ns_) return;
    constexpr std::uint32_t kChannelTid = 1u << 30;
    auto it = std::back_inserter(buf);
    const int pid = t.src + 1;
    if (!named_[{pid, kChannelTid + t.channel}]) {
      named_[{pid, kChannelTid + t.channel}] = true;
      sep(buf);
      fmt::format_to(it, "{{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": {}, \"tid\": {}, \"args\": {{\"name\": \"nccl channel {}\"}}}}",
                     pid, kChannelTid + t.channel, t.channel);
    }
    sep(buf);
    fmt::format_to(it, "{{\"name\": \"{} -> {}\", \"cat\": \"nccl\", \"ph\": \"X\", \"pid\": {}, \"tid\": {}, \"ts\": {:.3f}, "
                       "\"dur\": {:.3f}, \"args\": {{\"collective\": {}, \"bytes\": {}}}}}",
                   ep_name(node_, t.src), ep_name(node_, t.dst), pid, kChannelTid + t.channel, us(t.start_ns),
                   us(t.end_ns - t.start_ns), t.collective, t.bytes);
  }

  /// Link load: a counter per direction, GB/s of wire bytes between changes; `flush` is called
  /// between points.
  template <typename Flush>
  void link(fmt::memory_buffer& buf, const LinkResult& l, Flush&& flush) {
    auto it = std::back_inserter(buf);
    const std::string name = json_string(link_name(node_, l));
    double prev_t = 0, prev_b = 0;
    for (const auto& p : l.series) {
      if (p.t_ns >= end_ns_) break;
      if (p.t_ns > prev_t) {
        sep(buf);
        fmt::format_to(it, "{{\"name\": {}, \"ph\": \"C\", \"pid\": {}, \"ts\": {:.3f}, \"args\": {{\"GB/s\": {:.3f}}}}}", name,
                       links_pid_, us(prev_t), (p.wire_bytes - prev_b) / (p.t_ns - prev_t));
        flush();
      }
      prev_t = p.t_ns;
      prev_b = p.wire_bytes;
    }
    sep(buf);
    fmt::format_to(it, "{{\"name\": {}, \"ph\": \"C\", \"pid\": {}, \"ts\": {:.3f}, \"args\": {{\"GB/s\": 0}}}}", name, links_pid_,
                   us(prev_t));
  }

  static void footer(fmt::memory_buffer& buf) { fmt::format_to(std::back_inserter(buf), "\n]}}\n"); }

 private:
  static double us(double ns) { return ns * 1e-3; }
  void sep(fmt::memory_buffer& buf) {
    if (!first_) fmt::format_to(std::back_inserter(buf), ",\n");
    first_ = false;
  }

  const topology::Node& node_;
  const trace::Trace& trace_;
  const SimResult& r_;
  const int links_pid_;
  std::vector<std::size_t> ops_;
  double end_ns_ = 0;
  std::size_t transfers_ = 0, counters_ = 0;
  std::map<std::pair<int, std::uint32_t>, bool> named_;
  bool first_ = true;
};

}  // namespace

std::uint64_t estimate_timeline_bytes(const topology::Node& node, const trace::Trace& trace, const SimResult& r,
                                      std::size_t max_ops) {
  check_finite(r, "timeline");
  // Each kind of event written for a sample of up to 2,000, the rest at the sample's average size.
  constexpr std::size_t kSample = 2000;
  TimelineWriter w(node, trace, r, max_ops);
  fmt::memory_buffer buf;
  w.header(buf);
  double bytes = static_cast<double>(buf.size());
  const std::vector<std::size_t>& ops = w.ops();
  buf.clear();
  const std::size_t op_sample = std::min(kSample, ops.size());
  for (std::size_t k = 0; k < op_sample; ++k) w.op(buf, ops[k * ops.size() / op_sample]);
  if (op_sample > 0) bytes += static_cast<double>(buf.size()) / static_cast<double>(op_sample) * static_cast<double>(ops.size());
  buf.clear();
  std::size_t transfer_sample = 0;
  for (const TransferRecord& t : r.transfers) {
    if (transfer_sample == kSample) break;
    const std::size_t before = buf.size();
    w.transfer(buf, t);
    transfer_sample += buf.size() > before ? 1 : 0;
  }
  if (transfer_sample > 0)
    bytes += static_cast<double>(buf.size()) / static_cast<double>(transfer_sample) * static_cast<double>(w.transfers());
  // A link counter's event is about 110 bytes (its name, a time, a rate).
  bytes += 110.0 * static_cast<double>(w.counters() + r.links.size());
  return static_cast<std::uint64_t>(bytes);
}

void render_timeline(const topology::Node& node, const trace::Trace& trace, const SimResult& r, std::ostream& out,
                     std::size_t max_ops) {
  check_finite(r, "timeline");
  TimelineWriter w(node, trace, r, max_ops);
  // Written out every 4 MiB, not held whole: a timeline of millions of operations is gigabytes.
  fmt::memory_buffer buf;
  const std::uint64_t total = w.ops().size() + w.transfers() + w.counters();
  std::uint64_t done = 0;
  ProgressLine progress("timeline");
  auto flush = [&] {
    if (buf.size() < (4u << 20)) return;
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    buf.clear();
    progress.update(done, total, "events");
  };
  w.header(buf);
  for (std::size_t i : w.ops()) {
    w.op(buf, i);
    ++done;
    flush();
  }
  for (const TransferRecord& t : r.transfers) {
    w.transfer(buf, t);
    ++done;
    flush();
  }
  for (const LinkResult& l : r.links)
    w.link(buf, l, [&] {
      ++done;
      flush();
    });
  TimelineWriter::footer(buf);
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
}

}  // namespace linkcast::sim
