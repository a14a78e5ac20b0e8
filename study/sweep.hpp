// `linkcast sweep`: evaluate a study (study.hpp) on every point of its grid. Traces are projected
// (each distinct operation once, times its count), workloads simulated; the results are tidy rows
// (one per point x trace/workload) holding no timestamps or wall times, so runs on different
// numbers of threads or MPI ranks write identical files. The summary names the best point, each
// axis's sensitivity and, for the base node, which link class bounds each trace and workload.
#pragma once

#include <array>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "study/study.hpp"
#include "trace/trace.hpp"

namespace linkcast::study {

struct ItemResult {
  bool ok = true;
  std::string error;
  double figure_s = 0;                  // traces: projected total (first model); workloads: makespan
  std::vector<double> model_totals_s;   // traces: projected total per study model
  std::array<double, trace::kCategoryCount> by_kind_s{};  // traces: first model, per kind
  std::string bound_by;                 // the link class (or resource) that bounds it
  double bound_share = 0;               // traces: its share of the time; workloads: its utilisation
};

struct PointResult {
  std::size_t point = 0;  // grid index; kBasePoint for the unmodified base node
  std::string node_name;
  std::vector<ItemResult> items;  // the study's traces, then its workloads
};
inline constexpr std::size_t kBasePoint = static_cast<std::size_t>(-1);

class Sweep {
 public:
  /// Reads every trace once and indexes it; throws InputError for unreadable traces or traces
  /// whose endpoints the source node lacks.
  explicit Sweep(const Study& study);
  ~Sweep();

  /// Evaluates one grid point (thread-safe); a failure is recorded in the result, not thrown.
  PointResult evaluate(std::size_t point) const;
  PointResult evaluate_base() const;

  /// Evaluates `points` on `threads` workers; `progress(done)` is called from the workers as
  /// each point's traces and workloads advance: `done` counts points, those being evaluated by
  /// how far they got (a workload's simulation by its events), so that it moves long before the
  /// first point is done.
  std::vector<PointResult> run(const std::vector<std::size_t>& points, int threads,
                               const std::function<void(double)>& progress = {}) const;

  const Study& study() const { return *study_; }
  std::size_t items() const { return study_->traces.size() + study_->workloads.size(); }
  /// Distinct operations per trace (what one point projects), and all operations.
  std::vector<std::pair<std::size_t, std::size_t>> trace_sizes() const;

 private:
  /// How a point that starts from node `start` (Study::start_at) prices a host that is a trace's
  /// source host: the study's choice, the rates the point's axes vary kept as varied.
  projection::HostRateChoice host_rates(const topology::Node& start) const {
    return {study_->target_host_rates, &start};
  }
  struct PreparedTrace;
  /// `within(f)`, where given, is told the share f of the point done so far.
  PointResult evaluate_node(std::size_t point, const topology::Node& node,
                            const std::function<void(double)>& within = {}) const;
  PointResult evaluate(std::size_t point, const std::function<void(double)>& within) const;
  const Study* study_;
  std::vector<std::unique_ptr<PreparedTrace>> traces_;
  std::vector<const model::Model*> models_;  // the study's projection models, resolved once
  const model::Model* default_model_ = nullptr;
  const model::Model* sim_model_ = nullptr;
};

void write_results_csv(const Sweep& sweep, const PointResult& base, const std::vector<PointResult>& rows,
                       std::ostream& out);
void write_results_json(const Sweep& sweep, const PointResult& base, const std::vector<PointResult>& rows,
                        std::ostream& out);
/// Best point, sensitivity per axis and step, and the provisioning verdict, as text.
std::string summarize_sweep(const Sweep& sweep, const PointResult& base, const std::vector<PointResult>& rows);

}  // namespace linkcast::study
