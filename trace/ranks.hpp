// A job recorded as one trace per rank (PyTorch's profiler writes one file per process), read as
// one trace of the whole job.
#pragma once

#include <string>
#include <vector>

#include "trace/trace.hpp"

namespace linkcast::trace {

/// The trace files of `paths`: each file as given, each directory's regular files that look like
/// traces (.json, .json.gz, .csv, .csv.gz, .sqlite, .sqlite.gz, .nvvp), sorted by name with runs
/// of digits compared as numbers (rank2 before rank10). Throws InputError for a path that does
/// not exist or a directory without trace files.
/// `skipped`, where given, receives a line for each folder's subfolders that hold trace files
/// (not read: a folder is one level).
[[nodiscard]] std::vector<std::string> expand_trace_paths(const std::vector<std::string>& paths,
                                                          std::vector<std::string>* skipped = nullptr);

/// One trace of the whole job from the ranks' traces. Rank r is the trace's recorded rank
/// (Kineto's distributedInfo), else its place in `ranks`. A rank that ran on one GPU is put on
/// gpu<r>, as its collectives name their members by rank; a rank that used several keeps their
/// names; its collectives' members, which name ranks, keep theirs. CPU threads become
/// "rank<r>:<process>/<thread>", so that the ranks' processes stay apart. Times are put on one
/// clock by each file's base_time_ns. Files that name no rank, ran on the same GPUs and follow one
/// another in time are one process's successive profiling windows: concatenated in time order,
/// GPUs and threads kept, with a note. Files whose job sizes disagree, or one of which ran while no
/// other did, are merged with a warning that they are not one job's. Throws InputError when two
/// traces claim the same rank or two ranks the same GPU.
[[nodiscard]] Trace merge_ranks(std::vector<Trace> ranks);

/// Reads every path of expand_trace_paths(paths): one trace as it is, several merged by rank.
[[nodiscard]] Trace read_traces(const std::vector<std::string>& paths);

}  // namespace linkcast::trace
