#include "application/steps.hpp"

#include <cmath>
#include <map>

namespace linkcast::application {

std::vector<RecordedStep> recorded_steps(const trace::Trace& trace) {
  std::vector<RecordedStep> steps;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (trace.kinds()[i] != trace::OpKind::annotation || trace.durations()[i] < 0) continue;
    const std::string& name = trace.op_names[trace.names()[i]];
    if (name.starts_with("ProfilerStep#")) steps.push_back({name, static_cast<double>(trace.durations()[i])});
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
  if (actual != nullptr)
    for (const RecordedStep& s : recorded_steps(*actual)) on_target.emplace(s.name, s.ns);
  // Both replays list the same annotations in the same order.
  for (std::size_t k = 0; k < src.steps.size() && k < tgt.steps.size(); ++k) {
    StepRow row;
    row.name = src.steps[k].name;
    row.recorded_ns = src.steps[k].recorded_ns;
    row.projected_ns = scaled(row.recorded_ns, src.steps[k].replayed_ns, tgt.steps[k].replayed_ns);
    row.target_breakdown = tgt.steps[k].breakdown;
    if (const auto it = on_target.find(row.name); it != on_target.end()) row.actual_ns = it->second;
    t.rows.push_back(std::move(row));
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
