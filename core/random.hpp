#pragma once
// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA
// 2014): the small seeded generator behind the backend's access sampling and the generated
// graphs, so that a seed gives the same run on every machine, and its finaliser as a hash.

#include <cstdint>

namespace linkcast {

/// SplitMix64's finaliser: every bit of `z` reaches every bit of the result (also a hash of a
/// key's bits, where the key differs in a few high or low bits alone).
inline std::uint64_t splitmix64_mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// Advances `state` and returns the next 64 random bits.
inline std::uint64_t splitmix64(std::uint64_t& state) {
  state += 0x9E3779B97F4A7C15ULL;
  return splitmix64_mix(state);
}

}  // namespace linkcast
