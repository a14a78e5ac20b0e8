#include "projection/compare.hpp"

#include <boost/container_hash/hash.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
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

/// Each operation's start as a fraction of its trace's span (first start to last end), so that
/// two recordings of one program on machines of different speeds place its steps alike; 0 where
/// the trace records no times.
std::vector<double> span_fractions(const trace::Trace& t) {
  std::int64_t first_ns = std::numeric_limits<std::int64_t>::max(), last_ns = std::numeric_limits<std::int64_t>::min();
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t.starts()[i] < 0) continue;
    first_ns = std::min(first_ns, t.starts()[i]);
    last_ns = std::max(last_ns, trace::recorded_end_ns(t, i));
  }
  std::vector<double> out(t.size(), 0.0);
  if (last_ns <= first_ns) return out;
  const double span_ns = static_cast<double>(last_ns - first_ns);
  for (std::size_t i = 0; i < t.size(); ++i)
    if (t.starts()[i] >= 0) out[i] = static_cast<double>(t.starts()[i] - first_ns) / span_ns;
  return out;
}

/// Pairs two lists of operations of one key (the same kind, size, memories and rank), each in
/// order: all of them in order where they are as many or `in_order`; else each operation of the
/// shorter list, in turn, with the one of the longer nearest it in their traces' span
/// (span_fractions), after the previous pair's and leaving enough for the rest. One rank's
/// recording lacking an operation (a profile's window, a lost record) shifts no pair after it onto
/// the next one. Linear: each list is in order of its place in the span. Returns (index in
/// `source`, index in `actual`) pairs.
std::vector<std::pair<std::uint32_t, std::uint32_t>> pair_operations(const std::vector<std::uint32_t>& source,
                                                                     const std::vector<double>& source_at,
                                                                     const std::vector<std::uint32_t>& actual,
                                                                     const std::vector<double>& actual_at,
                                                                     bool in_order) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  const bool source_short = source.size() <= actual.size();
  const std::vector<std::uint32_t>& shorter = source_short ? source : actual;
  const std::vector<std::uint32_t>& longer = source_short ? actual : source;
  const std::vector<double>& shorter_at = source_short ? source_at : actual_at;
  const std::vector<double>& longer_at = source_short ? actual_at : source_at;
  const std::size_t n = shorter.size();
  const bool skips = longer.size() > n;
  std::size_t from = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t best = from;
    if (skips && !in_order) {
      const double at = shorter_at[shorter[i]];
      const std::size_t last = longer.size() - (n - i);  // the latest it may take
      while (best < last && std::fabs(longer_at[longer[best + 1]] - at) <= std::fabs(longer_at[longer[best]] - at))
        ++best;
    }
    pairs.emplace_back(source_short ? shorter[i] : longer[best], source_short ? longer[best] : shorter[i]);
    from = best + 1;
  }
  return pairs;
}

}  // namespace

MatchResult match_ops(const trace::Trace& source, const std::vector<Category>& source_categories,
                      const trace::Trace& actual) {
  // Two jobs of several ranks each: an operation is matched on its rank (a rank recorded more of
  // one kind than another would shift every match after it onto the next rank's). One process's
  // trace (or its profiling windows) matches whatever device index either recording ran on.
  const bool by_rank = trace::rank_files(source) > 1 && trace::rank_files(actual) > 1;
  std::unordered_map<std::string, std::int32_t> names;
  const std::vector<std::int32_t> actual_gpus = by_rank ? gpu_ids(actual, names) : std::vector<std::int32_t>{};
  const std::vector<std::int32_t> source_gpus = by_rank ? gpu_ids(source, names) : std::vector<std::int32_t>{};
  // Each key's operations of both traces, in order of occurrence.
  struct Lists {
    std::vector<std::uint32_t> source, actual;
  };
  std::unordered_map<Key, Lists, KeyHash> lists;
  const std::vector<char> host = host_flags(actual);
  for (std::size_t j = 0; j < actual.size(); ++j) {
    if (actual.durations()[j] < 0) continue;  // nothing to score against
    const std::int32_t gpu = by_rank ? gpu_of(actual, j, actual_gpus) : -1;
    lists[key_of(actual, j, categorize(actual, j, host), gpu)].actual.push_back(static_cast<std::uint32_t>(j));
  }
  for (std::size_t i = 0; i < source.size(); ++i) {
    const auto it = lists.find(key_of(source, i, source_categories[i], by_rank ? gpu_of(source, i, source_gpus) : -1));
    if (it != lists.end()) it->second.source.push_back(static_cast<std::uint32_t>(i));
  }
  // By place in the span only between two jobs, whose lists are each one rank's: a single
  // process's list of a key mixes its GPUs (a copy benchmark's runs on gpu0, then on gpu1), and a
  // trace that records more GPUs or sections than the other would place its operations apart.
  const std::vector<double> source_at = by_rank ? span_fractions(source) : std::vector<double>(source.size(), 0.0);
  const std::vector<double> actual_at = by_rank ? span_fractions(actual) : std::vector<double>(actual.size(), 0.0);
  MatchResult r;
  r.actual_index.assign(source.size(), -1);
  for (const auto& [key, l] : lists)
    for (const auto& [i, j] : pair_operations(l.source, source_at, l.actual, actual_at, !by_rank)) {
      r.actual_index[i] = j;
      ++r.matched;
    }
  r.unmatched_source = source.size() - r.matched;
  r.unmatched_actual = actual.size() - r.matched;
  return r;
}

}  // namespace linkcast::projection
