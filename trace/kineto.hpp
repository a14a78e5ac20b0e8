// Reader for PyTorch profiler / Kineto Chrome-trace JSON (plain or gzip'd), streamed through a
// SAX parser: complete events ("ph":"X", ts/dur in microseconds) with cat gpu_memcpy
// ("Memcpy HtoD (Pinned -> Device)", "Memcpy PtoP (Device -> Device)" with args fromDevice/
// toDevice), gpu_memset, and NCCL kernels (ncclDevKernel_* / ncclKernel_*) whose args carry
// "Collective name", "In msg nelems", "Out msg nelems", "Group size", "dtype",
// "Process Group Name" and "Process Group Ranks". Top-level deviceProperties gives GPU names and
// distributedInfo the rank.
#pragma once

#include <string>

#include "trace/trace.hpp"

namespace linkcast::trace {

/// `text` is the (decompressed) JSON; `name` names it in messages.
[[nodiscard]] Trace parse_kineto(const std::string& text, const std::string& name);
/// Reads a Kineto file, plain or gzip'd. Throws InputError for a corrupt or truncated gzip.
[[nodiscard]] Trace read_kineto(const std::string& path);

}  // namespace linkcast::trace
