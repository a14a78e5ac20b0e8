// What a trace, a GPU list or a workload may name, whatever reads it: the limits that keep a few
// bytes of input from sizing tables by a huge number (README, "Limits").
#pragma once

#include <cstddef>

namespace linkcast::trace {

/// Largest GPU index (gpu0 .. gpu4095): tables are sized by it, and a node has at most a few
/// hundred GPUs (GB200 NVL72: 72).
inline constexpr int kMaxGpuIndex = 4095;

/// Most GPUs one list names (a collective's group, a communicator, --gpus, gpus=) where no node
/// bounds it: the largest NVLink domain, NVL576. With a node, its GPU count bounds it.
inline constexpr std::size_t kMaxListedGpus = 576;

/// Most operations one trace holds: linkcast keeps a trace in memory, about 56 bytes an operation
/// (5.6 GB here), and its commands take about 65 bytes an operation on top.
inline constexpr std::size_t kMaxTraceOps = 100'000'000;

}  // namespace linkcast::trace
