// Values a node file may hold (inside the schema's hard ranges) that no shipped hardware has today:
// said as warnings, since a unit slip (MB/s for GB/s, GB for GiB x 2) is likelier than the part.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "topology/node.hpp"

namespace linkcast::topology {

/// The most memory any GPU ships with today: 288 GB (B300, MI355X: configs/SOURCES.md [64]). What a
/// GPU of a node that does not say its capacity, or of no node, is taken to hold.
inline constexpr std::uint64_t kLargestGpuMemoryBytes = 288'000'000'000;

/// One line per unusual value: "FILE:LINE: gpu3 memory.capacity_gib 512 GiB is more than any
/// GPU ships with (288 GB, B300/MI355X); check the unit". Empty for every shipped node.
[[nodiscard]] std::vector<std::string> unusual_values(const Node& node);

}  // namespace linkcast::topology
