#include "projection/compare.hpp"

#include <boost/container_hash/hash.hpp>

#include <unordered_map>

namespace linkcast::projection {

using trace::Category;
using trace::categorize;
using trace::host_flags;

namespace {

struct Key {
  std::uint8_t kind, category, src_mem, dst_mem;
  std::uint64_t bytes;
  bool operator==(const Key&) const = default;
};

struct KeyHash {
  std::size_t operator()(const Key& k) const {
    std::size_t seed = 0;
    for (const std::uint64_t v : {std::uint64_t{k.kind}, std::uint64_t{k.category}, std::uint64_t{k.src_mem},
                                  std::uint64_t{k.dst_mem}, k.bytes})
      boost::hash_combine(seed, v);
    return seed;
  }
};

Key key_of(const trace::Trace& t, std::size_t i, Category c) {
  return {static_cast<std::uint8_t>(t.kinds()[i]), static_cast<std::uint8_t>(c),
          static_cast<std::uint8_t>(t.src_mems()[i]), static_cast<std::uint8_t>(t.dst_mems()[i]), t.bytes()[i]};
}

}  // namespace

MatchResult match_ops(const trace::Trace& source, const std::vector<Category>& source_categories,
                      const trace::Trace& actual) {
  // Queue of actual operations per key, in order of occurrence.
  struct Queue {
    std::vector<std::uint32_t> indices;
    std::size_t next = 0;
  };
  std::unordered_map<Key, Queue, KeyHash> queues;
  const std::vector<char> host = host_flags(actual);
  for (std::size_t j = 0; j < actual.size(); ++j) {
    if (actual.durations()[j] < 0) continue;  // nothing to score against
    queues[key_of(actual, j, categorize(actual, j, host))].indices.push_back(static_cast<std::uint32_t>(j));
  }
  MatchResult r;
  r.actual_index.assign(source.size(), -1);
  for (std::size_t i = 0; i < source.size(); ++i) {
    const auto it = queues.find(key_of(source, i, source_categories[i]));
    if (it == queues.end() || it->second.next >= it->second.indices.size()) {
      ++r.unmatched_source;
      continue;
    }
    r.actual_index[i] = it->second.indices[it->second.next++];
    ++r.matched;
  }
  r.unmatched_actual = actual.size() - r.matched;
  return r;
}

}  // namespace linkcast::projection
