// Views of a trace that consumers which only see data movement take: the communication matrices,
// the per-operation projection of transfers, calibration from small copies. The whole trace
// (kernels, runtime calls, annotations) is the application replay's (sim/).
#pragma once

#include "trace/trace.hpp"

namespace linkcast::trace {

/// The operations that move data (moves_data()), in order, with every table and the trace's
/// metadata; launch links and kernel records are dropped (they point at operations left out).
/// A trace handed over is filtered in place (a trace of data movement alone is returned as it
/// is, never copied); one only lent is copied first.
/// Transfers that ran beside a kernel on one of their GPUs get OpFlag kBesideCompute first.
[[nodiscard]] Trace data_movement(Trace&& trace);
[[nodiscard]] Trace data_movement(const Trace& trace);

/// Sets kBesideCompute on every transfer (not a collective) whose recorded span overlaps a
/// kernel's on one of its GPUs.
void mark_transfers_beside_compute(Trace& trace);

}  // namespace linkcast::trace
