// What a whole application becomes on another node (`linkcast project` of a trace with kernels
// and runtime calls). Each operation the GPU runs gets a time on the target, from what the trace
// measured on the source:
//  - kernels: scaled by what bounds them (application/kernel_scaling.hpp);
//  - transfers and collectives: their measured time times the model's target / source ratio
//    (projection/projector.hpp prices both nodes; without a measured time, the target's price);
//  - CPU work, runtime calls and the gaps between them: kept.
// The trace is then replayed through what waited for what (sim/app_graph.hpp) twice: on the
// source node with every recorded duration (the honest replay, which must give back the recorded
// span) and on the target with the projected ones, where transfers share links and GPU-filling
// work shares SMs. What the replays disagree on is what the target changes.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "application/kernel_scaling.hpp"
#include "model/models.hpp"
#include "projection/projector.hpp"
#include "sim/simulate.hpp"
#include "topology/node.hpp"
#include "trace/trace.hpp"

namespace linkcast::application {

/// What the GPU ran, by class, for the "what changed" table.
enum class WorkClass : std::uint8_t { matrix_tensor, matrix_fp32, memory_kernels, transfers, collectives };
inline constexpr std::size_t kWorkClassCount = 5;
[[nodiscard]] std::string_view to_string(WorkClass c);

struct WorkTotals {
  std::size_t ops = 0;
  double source_ns = 0;  // recorded GPU time
  double target_ns = 0;  // projected GPU time
  std::size_t kept = 0;  // operations whose time was kept for want of a node value
};

struct ApplicationProjection {
  std::string model;           // transfer model of the projection
  sim::SimResult source;       // replay on the source node with the recorded durations
  sim::SimResult target;       // replay on the target node with the projected durations
  /// Per trace record, its projected GPU duration on the target (NaN for CPU-side operations).
  std::vector<double> target_durations_ns;
  std::array<WorkTotals, kWorkClassCount> by_class{};
  /// The application's own warnings, and the transfers' projector's where it was built here
  /// (not given by the caller).
  std::vector<std::string> warnings;
};

/// Projects `trace` (trace::Trace::has_application() true) recorded on `from` onto `to`, the
/// trace's endpoints renamed by `map` on the target. `data_onto_target`: the projector of
/// trace::data_movement(trace) from `from` onto `to` with `map` where the caller already has one
/// (`project` prices the transfers per operation too); null: built here. `for_timeline`: the
/// target's simulation keeps what a timeline draws (sim::SimOptions::keep_transfers). Throws
/// InputError as projection::Projector and sim::simulate do.
[[nodiscard]] ApplicationProjection project_application(const topology::Node& from, const topology::Node& to,
                                                        const trace::Trace& trace, const projection::EndpointMap& map,
                                                        const model::Model& model,
                                                        const projection::Projector* data_onto_target = nullptr,
                                                        bool for_timeline = false);

/// The application's span projected with another transfer model than `p`'s: `p`'s kernels,
/// the transfers and collectives priced by `model`, one more replay on the target, scaled as the
/// step table scales the span (recorded x target replay / `p`'s source replay). For `project`'s
/// span per model.
[[nodiscard]] double projected_span_with(const topology::Node& from, const topology::Node& to, const trace::Trace& trace,
                                         const projection::EndpointMap& map, const model::Model& model,
                                         const projection::Projector* data_onto_target, const ApplicationProjection& p);

/// Node GPU endpoints for the trace's gpu0, gpu1, ... after `map` (sim::SimOptions::gpus); empty
/// when the map renames no GPU.
[[nodiscard]] std::vector<int> placed_gpus(const topology::Node& node, const trace::Trace& trace,
                                           const projection::EndpointMap& map);

/// Places the trace's endpoints on `node` as `map` says, in `options`: its GPUs by index
/// (placed_gpus), every other name it renames (a CPU, a NIC, "host") by name. An entry whose
/// target the node lacks, or of another kind than what it places (a GPU onto a CPU), is refused;
/// an entry naming no endpoint of the trace (a misspelt one) is returned as a warning.
[[nodiscard]] std::vector<std::string> place(const topology::Node& node, const trace::Trace& trace,
                                             const projection::EndpointMap& map, sim::SimOptions& options);

}  // namespace linkcast::application
