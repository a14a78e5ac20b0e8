// Reader for PyTorch profiler / Kineto Chrome-trace JSON, plain or gzip'd, in bounded memory: the
// file is read in blocks, the `traceEvents` array is split into its events by a small scanner
// that tracks strings and nesting, and each event is parsed on its own with simdjson, so memory
// holds one block and the operations kept, whatever the file's size. The scanner also notes each
// event's top-level "ph", "cat" and "name": events the reader has no use for (CPU operators, flow
// arrows: most of a trace) are passed over without being parsed, and so without being validated.
//
// What it keeps (complete events, "ph":"X", ts/dur in microseconds):
//  - copies: cat gpu_memcpy (PyTorch 1.9+) or Memcpy (1.8), "Memcpy HtoD (Pinned -> Device)",
//    "Memcpy PtoP (Device -> Device)" with args fromDevice/toDevice; memsets: gpu_memset / Memset;
//  - NCCL kernels (ncclDevKernel_*, ncclKernel_*) as collectives, from their args "Collective
//    name", "In msg nelems", "Out msg nelems", "Group size", "dtype", "Process Group Name" and
//    "Process Group Ranks", else from the kernel's name (its size then unknown: a warning);
//  - every other kernel (cat kernel / Kernel) with its grid, block, registers and shared memory;
//  - CUDA runtime and driver calls (cuda_runtime, cuda_driver, Runtime) on their CPU threads,
//    linked to the GPU work they launched by the correlation id both carry;
//  - user annotations (user_annotation; ProfilerStep#N also when written as a cpu_op).
// A pageable copy launched inside aten::_to_copy (PyTorch's `.to()`, `.cpu()`) writes into a
// tensor allocated for it: its destination is marked fresh (kFreshDestination).
// Top-level deviceProperties gives GPU names; distributedInfo the rank and world size.
#pragma once

#include <cstddef>
#include <string>

#include "trace/trace.hpp"

namespace linkcast::trace {

/// Reads a Kineto trace file, plain or gzip'd, in bounded memory. Throws InputError naming the
/// file and the event for bad input.
[[nodiscard]] Trace read_kineto(const std::string& path);

/// The same from text already in memory; `name` names it in messages.
[[nodiscard]] Trace parse_kineto(const std::string& text, const std::string& name);

/// Largest device index accepted in a trace: a node has at most a few hundred GPUs (GB200 NVL72:
/// 72), and the readers size tables by it.
inline constexpr int kMaxDeviceIndex = 4095;

}  // namespace linkcast::trace
