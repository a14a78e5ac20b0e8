// One entry point for every trace format, chosen by content rather than file extension:
// SQLite header -> nvprof or Nsight Systems (by their tables); JSON (plain or gzip'd) -> Kineto;
// anything else (plain or gzip'd) -> linkcast CSV.
#pragma once

#include <string>
#include <string_view>

#include "trace/trace.hpp"

namespace linkcast::trace {

/// "nvprof", "nsys", "kineto" or "csv" (by content). Throws InputError for unreadable files.
[[nodiscard]] std::string detect_trace_format(const std::string& path);

/// Whether `path` names a YAML file (a node or study file): .yaml or .yml, plain or .gz. The
/// readers refuse one given as a trace; the CLI refuses anything else given as a node.
[[nodiscard]] bool is_yaml_file_name(const std::string& path);
/// Where each command takes its node file, for the messages about a file in the wrong place.
inline constexpr std::string_view kWhereTheNodeGoes =
    "the first argument of `simulate` and `topo`, `--node FILE` of `matrix` and `report`, `--from`/`--to` of "
    "`project`";

/// Reads any supported trace. Throws InputError naming the file and record on bad input.
[[nodiscard]] Trace read_trace(const std::string& path);

}  // namespace linkcast::trace
