// One entry point for every trace format, chosen by content rather than file extension:
// SQLite header -> nvprof or Nsight Systems (by their tables); JSON (plain or gzip'd) -> Kineto;
// anything else (plain or gzip'd) -> linkcast CSV.
#pragma once

#include <string>

#include "trace/trace.hpp"

namespace linkcast::trace {

/// "nvprof", "nsys", "kineto" or "csv" (by content). Throws InputError for unreadable files.
[[nodiscard]] std::string detect_trace_format(const std::string& path);

/// Reads any supported trace. Throws InputError naming the file and record on bad input.
[[nodiscard]] Trace read_trace(const std::string& path);

}  // namespace linkcast::trace
