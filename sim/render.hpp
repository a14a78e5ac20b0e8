// What `linkcast simulate` prints: a table for people, JSON for programs, a Chrome trace-event
// timeline for Perfetto (ui.perfetto.dev) or chrome://tracing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>

#include <nlohmann/json_fwd.hpp>

#include "sim/simulate.hpp"
#include "topology/node.hpp"
#include "trace/trace.hpp"

namespace linkcast::sim {

/// {"makespan_s", "node", "trace", "model", "solver", "ops": [...], "application": {...} (a trace
///  with kernels or runtime calls: application_json), "collectives": [...], "links": [...],
///  "matrix": {...}, "stats": {...}}; times in seconds (those named _ns, the application's critical
///  path, in nanoseconds), sizes in bytes.
void render_json(const topology::Node& node, const trace::Trace& trace, const SimResult& r, std::ostream& out);

/// Where a replay's time went along its critical path, the table's columns:
/// {"compute_ns", "exposed_transfers_ns", "exposed_collectives_ns", "cpu_ns", "launch_sync_waits_ns"}.
nlohmann::json breakdown_json(const ApplicationResult::Breakdown& b);

/// The application replay: {"recorded_span_s", "replayed_span_s", "critical_path": breakdown_json,
/// "steps": [{"name", "recorded_s", "replayed_s", "critical_path"}]} (the job's steps, each its
/// slowest rank's, as the table shows them).
nlohmann::json application_json(const ApplicationResult& a);

/// Makespan, operations by class (simulated against measured where the trace has durations),
/// collectives beside NCCL's own model, the busiest links.
void render_table(const topology::Node& node, const trace::Trace& trace, const SimResult& r, std::ostream& out);

/// Chrome trace events: one process per device with a track per stream (operations), one
/// track per NCCL channel (collective transfers, when kept), and a counter per link (GB/s).
/// `max_ops` > 0 keeps the first max_ops operations by start time, and the transfers and link
/// counters up to the last one's end.
void render_timeline(const topology::Node& node, const trace::Trace& trace, const SimResult& r,
                     std::ostream& out, std::size_t max_ops = 0);
/// About how many bytes render_timeline writes (within a few percent: a sample of each kind of
/// event is written and the rest counted), so that a command can warn before writing gigabytes.
std::uint64_t estimate_timeline_bytes(const topology::Node& node, const trace::Trace& trace, const SimResult& r,
                                      std::size_t max_ops = 0);

/// "gpu0->nvswitch0" for a direction of a link.
std::string link_name(const topology::Node& node, const LinkResult& l);

/// WMAPE (core/wmape.hpp) of the simulated durations against the measured ones, over the
/// operations with a measured duration; 0 when none has one (`matched` is then 0).
double wmape_vs_measured(const trace::Trace& trace, const SimResult& r, std::size_t* matched = nullptr);

}  // namespace linkcast::sim
