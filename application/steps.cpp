#include "application/steps.hpp"

#include <cmath>
#include <algorithm>
#include <limits>
#include <map>

#include "sim/app_graph.hpp"

namespace linkcast::application {

std::vector<RecordedStep> recorded_steps(const trace::Trace& trace) {
  const std::string prefix = sim::step_prefix(trace);
  std::vector<RecordedStep> steps;
  if (prefix.empty()) return steps;
  std::map<std::string, std::size_t> at;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (trace.kinds()[i] != trace::OpKind::annotation || trace.durations()[i] < 0) continue;
    const std::string& name = trace.op_names[trace.names()[i]];
    if (!name.starts_with(prefix)) continue;
    const double ns = static_cast<double>(trace.durations()[i]);
    if (const auto [it, fresh] = at.emplace(name, steps.size()); fresh) steps.push_back({name, ns});
    else steps[it->second].ns = std::max(steps[it->second].ns, ns);
  }
  return steps;
}

namespace {

double scaled(double recorded, double source_replay, double target_replay) {
  return source_replay > 0 ? recorded * target_replay / source_replay : target_replay;
}

}  // namespace

StepTable step_table(const ApplicationProjection& p, const trace::Trace* actual) {
  StepTable t;
  const auto& src = p.source.application;
  const auto& tgt = p.target.application;
  t.recorded_span_ns = src.recorded_span_ns;
  t.projected_span_ns = scaled(src.recorded_span_ns, src.replayed_span_ns, tgt.replayed_span_ns);
  std::map<std::string, double> on_target;
  if (actual != nullptr) {
    for (const RecordedStep& s : recorded_steps(*actual)) on_target.emplace(s.name, s.ns);
    t.actual_span_ns = trace::recorded_span_ns(*actual);
  }
  // Both replays list the same annotations in the same order; one row per step name, its slowest
  // rank's record.
  std::map<std::string, std::size_t> row_of;
  for (std::size_t k = 0; k < src.steps.size() && k < tgt.steps.size(); ++k) {
    const double recorded = src.steps[k].recorded_ns;
    const double projected = scaled(recorded, src.steps[k].replayed_ns, tgt.steps[k].replayed_ns);
    const auto [it, fresh] = row_of.emplace(src.steps[k].name, t.rows.size());
    if (fresh) {
      StepRow row;
      row.name = src.steps[k].name;
      if (const auto a = on_target.find(row.name); a != on_target.end()) row.actual_ns = a->second;
      t.rows.push_back(std::move(row));
    }
    StepRow& row = t.rows[it->second];
    row.recorded_ns = std::max(row.recorded_ns, recorded);
    if (projected >= row.projected_ns) {
      row.projected_ns = projected;
      row.target_breakdown = tgt.steps[k].breakdown;
    }
  }
  StepScore s;
  double proj = 0, meas = 0, act = 0, proj_abs = 0, meas_abs = 0;
  for (const StepRow& r : t.rows) {
    if (!r.actual_ns) continue;
    ++s.steps;
    proj += r.projected_ns;
    meas += r.recorded_ns;
    act += *r.actual_ns;
    proj_abs += std::fabs(r.projected_ns - *r.actual_ns);
    meas_abs += std::fabs(r.recorded_ns - *r.actual_ns);
  }
  if (s.steps > 0 && act > 0) {
    s.projected_error_pct = 100 * (proj - act) / act;
    s.measured_error_pct = 100 * (meas - act) / act;
    s.projected_wmape_pct = 100 * proj_abs / act;
    s.measured_wmape_pct = 100 * meas_abs / act;
    t.score = s;
  }
  return t;
}

}  // namespace linkcast::application
