#include "trace/select.hpp"

#include <utility>

namespace linkcast::trace {

Trace data_movement(Trace&& trace) {
  trace.drop_application();
  return std::move(trace);
}

Trace data_movement(const Trace& trace) { return data_movement(Trace(trace)); }

}  // namespace linkcast::trace
