#include "trace/index.hpp"

#include <boost/container_hash/hash.hpp>

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace linkcast::trace {

namespace {

struct GroupKey {
  std::uint8_t kind, category, src_mem, dst_mem;
  std::uint16_t src, dst, issuer;
  std::uint32_t group;
  std::uint64_t bytes;
  bool operator==(const GroupKey&) const = default;
};

struct GroupKeyHash {
  std::size_t operator()(const GroupKey& k) const {
    std::size_t seed = 0;
    for (const std::uint64_t v : {std::uint64_t{k.kind}, std::uint64_t{k.category}, std::uint64_t{k.src_mem},
                                  std::uint64_t{k.dst_mem}, std::uint64_t{k.src}, std::uint64_t{k.dst},
                                  std::uint64_t{k.issuer}, std::uint64_t{k.group}, k.bytes})
      boost::hash_combine(seed, v);
    return seed;
  }
};

}  // namespace

TraceIndex::TraceIndex(const Trace& t) : trace(&t) {
  categories.resize(t.size());
  group_of.resize(t.size());
  const std::vector<char> host = host_flags(t);
  std::unordered_map<GroupKey, std::uint32_t, GroupKeyHash> groups_by_key;
  first_record.assign(t.endpoint_count(), std::numeric_limits<std::size_t>::max());
  std::vector<char> pair_seen(t.endpoint_count() * t.endpoint_count(), 0);
  std::vector<char> group_seen(t.group_count(), 0);
  std::array<std::vector<std::int64_t>, model::kCopyClassCount> small;
  auto note = [&](std::uint16_t e, std::size_t i) {
    if (first_record[e] == std::numeric_limits<std::size_t>::max()) first_record[e] = i;
  };
  for (std::size_t i = 0; i < t.size(); ++i) {
    const std::uint16_t s = t.srcs()[i], d = t.dsts()[i];
    note(s, i);
    note(d, i);
    categories[i] = categorize(t, i, host);
    const OpKind kind = t.kinds()[i];
    const trace::Op op = t.op(i);
    const GroupKey key{static_cast<std::uint8_t>(kind), static_cast<std::uint8_t>(categories[i]),
                       static_cast<std::uint8_t>(op.src_mem), static_cast<std::uint8_t>(op.dst_mem), s, d, op.issuer,
                       op.group, op.bytes};
    const auto [it, inserted] = groups_by_key.emplace(key, static_cast<std::uint32_t>(group_first.size()));
    if (inserted) {
      group_first.push_back(i);
      group_count.push_back(0.0);
    }
    group_of[i] = it->second;
    group_count[it->second] += 1.0;
    if (trace::is_collective(kind)) {
      const std::uint32_t g = op.group;
      if (!group_seen[g]) {
        group_seen[g] = 1;
        groups.emplace_back(g, i);
        for (std::uint16_t m : t.group(g)) note(m, i);
      }
      continue;
    }
    char& seen = pair_seen[static_cast<std::size_t>(s) * t.endpoint_count() + d];
    if (!seen) {
      seen = 1;
      pairs.push_back({s, d, i});
    }
    // Copies and memsets of at most kSmallTransferBytes measure the 1-byte cost (L + O).
    if ((kind == OpKind::copy || kind == OpKind::memset) && t.bytes()[i] <= kSmallTransferBytes &&
        t.durations()[i] > 0) {
      if (const auto cls = copy_class_of(categories[i])) small[static_cast<std::size_t>(*cls)].push_back(t.durations()[i]);
    }
  }
  for (std::size_t c = 0; c < small.size(); ++c) {
    auto& v = small[c];
    small_count[c] = v.size();
    if (v.empty()) continue;
    std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
    small_median_ns[c] = static_cast<double>(v[v.size() / 2]);
  }
}

}  // namespace linkcast::trace
