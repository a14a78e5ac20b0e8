// What a trace, a GPU list or a workload may name, whatever reads it: the limits that keep a few
// bytes of input from sizing tables by a huge number (README, "Limits").
#pragma once

#include <cstddef>
#include <cstdint>

namespace linkcast::trace {

/// Largest GPU index (gpu0 .. gpu4095): tables are sized by it, and a node has at most a few
/// hundred GPUs (GB200 NVL72: 72).
inline constexpr int kMaxGpuIndex = 4095;

/// Most GPUs one list names (a collective's group, a communicator, --gpus, gpus=) where no node
/// bounds it: the largest NVLink domain, NVL576. With a node, its GPU count bounds it.
inline constexpr std::size_t kMaxListedGpus = 576;

/// Most operations one trace holds: linkcast keeps a trace in memory, 35 bytes an operation for
/// plain copies and up to 72 with every column (3.5 to 7.2 GB here); `simulate` takes about 90
/// bytes an operation on top (12.8 GB in all for 100 M copies), `project` and `matrix` less.
inline constexpr std::size_t kMaxTraceOps = 100'000'000;

/// Most bytes one operation moves: no device holds more (the largest GPU memory is 288 GB, a
/// host's a few TB). A larger count is a corrupt record, not a copy.
inline constexpr std::uint64_t kMaxOpBytes = std::uint64_t{1} << 44;  // 16 TiB

/// Most bytes a trace's operations move together (8 PiB: 20 minutes of eight GPUs each moving
/// 900 GB/s both ways, where a profiler trace spans seconds to minutes of a job). The matrices
/// count a collective's bytes once per rank pair (up to 2 x 576 times its buffer) in 64 bits;
/// this keeps every such sum exact (2^53 x 1152 < 2^64).
inline constexpr std::uint64_t kMaxTraceBytes = std::uint64_t{1} << 53;

/// Longest span a trace's operations plausibly cover: a week (profilers record seconds to hours).
inline constexpr double kMaxPlausibleSpanS = 7 * 86400.0;

}  // namespace linkcast::trace
