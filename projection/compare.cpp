#include "projection/compare.hpp"

#include <boost/container_hash/hash.hpp>

#include <string>
#include <unordered_map>

namespace linkcast::projection {

using trace::Category;
using trace::categorize;
using trace::host_flags;

namespace {

struct Key {
  std::uint8_t kind, category, src_mem, dst_mem;
  std::uint64_t bytes;
  std::int32_t gpu;  // the rank's GPU (by name) where both traces are jobs of several rank files; else -1
  bool operator==(const Key&) const = default;
};

struct KeyHash {
  std::size_t operator()(const Key& k) const {
    std::size_t seed = 0;
    for (const std::uint64_t v : {std::uint64_t{k.kind}, std::uint64_t{k.category}, std::uint64_t{k.src_mem},
                                  std::uint64_t{k.dst_mem}, k.bytes, static_cast<std::uint64_t>(k.gpu)})
      boost::hash_combine(seed, v);
    return seed;
  }
};

/// Each endpoint's GPU id, shared by two traces through `ids` (a GPU name's id), -1 for a host:
/// each rank of a job merged from several files is on gpu<rank> in both, so an operation is
/// matched within its rank.
std::vector<std::int32_t> gpu_ids(const trace::Trace& t, std::unordered_map<std::string, std::int32_t>& ids) {
  std::vector<std::int32_t> out;
  for (const std::string& name : t.endpoint_names())
    out.push_back(trace::is_host_name(name) ? -1 : ids.emplace(name, static_cast<std::int32_t>(ids.size())).first->second);
  return out;
}

/// The GPU id (gpu_ids) of the GPU record i ran on: a recv's destination, else its source, else
/// its destination where the source is a host; -1 for host-only.
std::int32_t gpu_of(const trace::Trace& t, std::size_t i, const std::vector<std::int32_t>& ids) {
  const std::int32_t own = ids[t.kinds()[i] == trace::OpKind::recv ? t.dsts()[i] : t.srcs()[i]];
  return own >= 0 ? own : ids[t.dsts()[i]];
}

Key key_of(const trace::Trace& t, std::size_t i, Category c, std::int32_t gpu) {
  return {static_cast<std::uint8_t>(t.kinds()[i]), static_cast<std::uint8_t>(c),
          static_cast<std::uint8_t>(t.src_mems()[i]), static_cast<std::uint8_t>(t.dst_mems()[i]), t.bytes()[i], gpu};
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
  // Two jobs of several ranks each: an operation is matched on its rank (a rank recorded more of
  // one kind than another would shift every match after it onto the next rank's). One process's
  // trace (or its profiling windows) matches whatever device index either recording ran on.
  const bool by_rank = trace::rank_files(source) > 1 && trace::rank_files(actual) > 1;
  std::unordered_map<std::string, std::int32_t> names;
  const std::vector<std::int32_t> actual_gpus = by_rank ? gpu_ids(actual, names) : std::vector<std::int32_t>{};
  const std::vector<std::int32_t> source_gpus = by_rank ? gpu_ids(source, names) : std::vector<std::int32_t>{};
  const std::vector<char> host = host_flags(actual);
  for (std::size_t j = 0; j < actual.size(); ++j) {
    if (actual.durations()[j] < 0) continue;  // nothing to score against
    const std::int32_t gpu = by_rank ? gpu_of(actual, j, actual_gpus) : -1;
    queues[key_of(actual, j, categorize(actual, j, host), gpu)].indices.push_back(static_cast<std::uint32_t>(j));
  }
  MatchResult r;
  r.actual_index.assign(source.size(), -1);
  for (std::size_t i = 0; i < source.size(); ++i) {
    const auto it = queues.find(key_of(source, i, source_categories[i], by_rank ? gpu_of(source, i, source_gpus) : -1));
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
