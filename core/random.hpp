#pragma once
// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA
// 2014): the small seeded generator behind the backend's access sampling and the generated
// graphs, so that a seed gives the same run on every machine.

#include <cstdint>

namespace linkcast {

/// Advances `state` and returns the next 64 random bits.
inline std::uint64_t splitmix64(std::uint64_t& state) {
  state += 0x9E3779B97F4A7C15ULL;
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace linkcast
