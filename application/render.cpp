#include "application/render.hpp"

#include <fmt/format.h>

#include "core/table.hpp"
#include "core/units.hpp"
#include "sim/render.hpp"

namespace linkcast::application {

using sim::breakdown_json;

void render_table(const topology::Node& from, const topology::Node& to, const ApplicationProjection& p,
                  const StepTable& steps, std::ostream& out) {
  const auto& src = p.source.application;
  const auto& tgt = p.target.application;
  out << fmt::format("\nApplication ({} model for transfers): {} recorded on {}, projected {} on {} ({})\n", p.model,
                     format_duration_ns(steps.recorded_span_ns), from.name, format_duration_ns(steps.projected_span_ns),
                     to.name, format_change_pct(steps.projected_span_ns, steps.recorded_span_ns, 1));
  out << fmt::format("  replays: {} on {} ({} against the recording: the replay's own error, which the projection "
                     "divides out), {} on {}\n",
                     format_duration_ns(src.replayed_span_ns), from.name, format_change_pct(src.replayed_span_ns, src.recorded_span_ns, 1),
                     format_duration_ns(tgt.replayed_span_ns), to.name);
  using A = TextTable::Align;
  const bool actual = steps.score.has_value();
  std::vector<std::string> head{"step", "recorded", "projected", "change"};
  std::vector<A> align{A::left, A::right, A::right, A::right};
  if (actual) {
    for (const char* h : {"actual", "error", "nothing changes"}) head.push_back(h);
    for (int k = 0; k < 3; ++k) align.push_back(A::right);
  }
  for (const char* h : {"compute", "exposed transfers", "CPU-bound"}) head.push_back(h);
  for (int k = 0; k < 3; ++k) align.push_back(A::right);
  TextTable table(head, align);
  double rec = 0, proj = 0;
  for (const StepRow& r : steps.rows) {
    std::vector<std::string> row{r.name, format_duration_ns(r.recorded_ns), format_duration_ns(r.projected_ns),
                                 format_change_pct(r.projected_ns, r.recorded_ns, 1)};
    if (actual) {
      if (r.actual_ns) {
        row.push_back(format_duration_ns(*r.actual_ns));
        row.push_back(format_change_pct(r.projected_ns, *r.actual_ns, 1));
        row.push_back(format_change_pct(r.recorded_ns, *r.actual_ns, 1));
      } else {
        for (int k = 0; k < 3; ++k) row.emplace_back("-");
      }
    }
    const double total = r.target_breakdown.total_ns();
    row.push_back(format_share_ns(r.target_breakdown.compute_ns, total));
    row.push_back(format_share_ns(r.target_breakdown.transfers_ns + r.target_breakdown.collectives_ns, total));
    row.push_back(format_share_ns(r.target_breakdown.cpu_ns, total));
    table.add_row(std::move(row));
    rec += r.recorded_ns;
    proj += r.projected_ns;
  }
  if (!steps.rows.empty()) {
    table.add_rule();
    std::vector<std::string> row{"all steps", format_duration_ns(rec), format_duration_ns(proj), format_change_pct(proj, rec, 1)};
    if (actual)
      for (const std::string& c : {fmt::format("{} steps", steps.score->steps),
                                   fmt::format("{:+.1f}%", steps.score->projected_error_pct),
                                   fmt::format("{:+.1f}%", steps.score->measured_error_pct)})
        row.push_back(c);
    for (int k = 0; k < 3; ++k) row.emplace_back("");
    table.add_row(std::move(row));
    out << "Steps (projected = recorded x target replay / source replay; compute, exposed transfers and CPU-bound: "
           "the target's critical path):\n"
        << table.render();
  } else {
    out << "The trace has no step annotations (ProfilerStep#N, or <name>step<N>): only the span is projected.\n";
  }
  if (steps.actual_span_ns)
    out << fmt::format("Span against the target's recording ({}): projected {}, nothing changes {}\n",
                       format_duration_ns(*steps.actual_span_ns), format_change_pct(steps.projected_span_ns, *steps.actual_span_ns, 1),
                       format_change_pct(steps.recorded_span_ns, *steps.actual_span_ns, 1));
  if (steps.score)
    out << fmt::format("Step time error against the target's recording over {} steps: projected {:+.1f}% "
                       "(WMAPE {:.1f}%), nothing changes {:+.1f}% (WMAPE {:.1f}%)\n",
                       steps.score->steps, steps.score->projected_error_pct, steps.score->projected_wmape_pct,
                       steps.score->measured_error_pct, steps.score->measured_wmape_pct);

  TextTable work({"GPU work", "ops", "on " + from.name, "on " + to.name, "factor"},
                 {A::left, A::right, A::right, A::right, A::right});
  for (std::size_t c = 0; c < kWorkClassCount; ++c) {
    const WorkTotals& w = p.by_class[c];
    if (w.ops == 0) continue;
    std::string name(to_string(static_cast<WorkClass>(c)));
    if (w.kept > 0) name += fmt::format(" ({} kept)", w.kept);
    work.add_row({name, std::to_string(w.ops), format_duration_ns(w.source_ns), format_duration_ns(w.target_ns),
                  w.source_ns > 0 ? fmt::format("{:.3f}", w.target_ns / w.source_ns) : "-"});
  }
  out << "What the GPU ran (summed over operations, before overlap):\n" << work.render();
  const auto& b = tgt.breakdown;
  const double total = b.total_ns();
  out << fmt::format("Critical path on {}: compute {}, exposed transfers {}, exposed collectives {}, CPU-bound {}, "
                     "launch/sync/waits {}\n",
                     to.name, format_share_ns(b.compute_ns, total), format_share_ns(b.transfers_ns, total), format_share_ns(b.collectives_ns, total),
                     format_share_ns(b.cpu_ns, total), format_share_ns(b.launch_ns + b.sync_ns + b.other_ns, total));
}

nlohmann::json to_json(const topology::Node& from, const topology::Node& to, const ApplicationProjection& p,
                       const StepTable& steps) {
  using nlohmann::json;
  json j;
  j["model"] = p.model;
  j["source_node"] = from.name;
  j["target_node"] = to.name;
  j["span"] = {{"recorded_ns", steps.recorded_span_ns},
               {"projected_ns", steps.projected_span_ns},
               {"source_replay_ns", p.source.application.replayed_span_ns},
               {"target_replay_ns", p.target.application.replayed_span_ns}};
  if (steps.actual_span_ns) j["span"]["actual_ns"] = *steps.actual_span_ns;
  json rows = json::array();
  for (const StepRow& r : steps.rows) {
    json row = {{"name", r.name}, {"recorded_ns", r.recorded_ns}, {"projected_ns", r.projected_ns},
                {"target_critical_path", breakdown_json(r.target_breakdown)}};
    if (r.actual_ns) row["actual_ns"] = *r.actual_ns;
    rows.push_back(std::move(row));
  }
  j["steps"] = std::move(rows);
  if (steps.score)
    j["score"] = {{"steps", steps.score->steps},
                  {"projected_error_pct", steps.score->projected_error_pct},
                  {"projected_wmape_pct", steps.score->projected_wmape_pct},
                  {"measured_error_pct", steps.score->measured_error_pct},
                  {"measured_wmape_pct", steps.score->measured_wmape_pct}};
  json work = json::array();
  for (std::size_t c = 0; c < kWorkClassCount; ++c) {
    const WorkTotals& w = p.by_class[c];
    if (w.ops == 0) continue;
    work.push_back({{"class", to_string(static_cast<WorkClass>(c))},
                    {"ops", w.ops},
                    {"source_ns", w.source_ns},
                    {"target_ns", w.target_ns},
                    {"kept", w.kept}});
  }
  j["gpu_work"] = std::move(work);
  j["target_critical_path"] = breakdown_json(p.target.application.breakdown);
  return j;
}

void render_span_by_model(const StepTable& steps, const SpanByModel& spans, std::ostream& out) {
  if (spans.size() < 2) return;
  out << "Span per transfer model (recorded " << format_duration_ns(steps.recorded_span_ns);
  if (steps.actual_span_ns) out << ", actual " << format_duration_ns(*steps.actual_span_ns);
  out << "):";
  for (const auto& [name, ns] : spans)
    out << fmt::format(" {} {} ({})", name, format_duration_ns(ns), format_change_pct(ns, steps.recorded_span_ns, 1));
  out << "\n";
}

nlohmann::json span_json(const StepTable& steps, const SpanByModel& spans) {
  nlohmann::json j = {{"source_s", steps.recorded_span_ns * 1e-9}, {"models", nlohmann::json::object()}};
  if (steps.actual_span_ns) j["actual_s"] = *steps.actual_span_ns * 1e-9;
  for (const auto& [name, ns] : spans) j["models"][name] = ns * 1e-9;
  return j;
}

}  // namespace linkcast::application
