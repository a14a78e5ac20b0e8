#include "trace/select.hpp"

namespace linkcast::trace {

Trace data_movement(const Trace& trace) {
  if (!trace.has_application()) return trace;
  Trace out = trace;  // tables and metadata; the operations are replaced below
  out.clear_operations();
  std::size_t kept = 0;
  for (OpKind k : trace.kinds()) kept += moves_data(k) ? 1 : 0;
  out.reserve(kept);
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (!moves_data(trace.kinds()[i])) continue;
    Op op = trace.op(i);
    op.launch = kNoIndex;
    op.kernel = kNoIndex;
    out.push(op);
  }
  return out;
}

}  // namespace linkcast::trace
