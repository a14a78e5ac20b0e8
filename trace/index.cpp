#include "trace/index.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <vector>

namespace linkcast::trace {

namespace {

struct GroupKey {
  std::uint8_t kind, category, src_mem, dst_mem;
  std::uint16_t src, dst, issuer;
  std::uint32_t group;
  std::uint64_t bytes;
  bool operator==(const GroupKey&) const = default;
};

/// The key's fields packed into three words, mixed (a multiply-xorshift finaliser).
std::uint64_t hash_of(const GroupKey& k) {
  const std::uint64_t a = std::uint64_t{k.kind} | std::uint64_t{k.category} << 8 | std::uint64_t{k.src_mem} << 16 |
                          std::uint64_t{k.dst_mem} << 24 | std::uint64_t{k.src} << 32 | std::uint64_t{k.dst} << 48;
  const std::uint64_t b = std::uint64_t{k.issuer} | std::uint64_t{k.group} << 16;
  std::uint64_t h = (a * 0x9E3779B97F4A7C15ull) ^ (b * 0xC2B2AE3D27D4EB4Full) ^ (k.bytes * 0x165667B19E3779F9ull);
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  return h;
}

/// Group ids by key, open addressing with linear probing: 8 bytes a slot, at most half full, and
/// each group's key kept once beside it (a node-based map took 545-752 ns per distinct key, most
/// of a projection's time where every operation has its own size; issue 17). A key's slot comes
/// from its hash's high bits, which the slot keeps as a tag: growing the table moves the slots
/// without hashing their keys again (that was two thirds of the hashing).
class GroupTable {
 public:
  /// Asks the memory for the slot where a key of hash h starts its probe (a hint: the table may
  /// grow before that key comes).
  void prefetch(std::uint64_t h) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[home(tag_of(h))]);
  }
  /// The group of `key` (whose hash is h), or `next` (which the caller then creates) where it has
  /// none yet.
  std::uint32_t find_or_add(const GroupKey& key, std::uint64_t h, std::uint32_t next) {
    if (2 * (keys_.size() + 1) > slots_.size()) grow();
    const std::uint32_t tag = tag_of(h);
    for (std::size_t at = home(tag);; at = (at + 1) & mask_) {
      Slot& slot = slots_[at];
      if (slot.group == kEmpty) {
        slot = {next, tag};
        keys_.push_back(key);
        return next;
      }
      if (slot.tag == tag && keys_[slot.group] == key) return slot.group;
    }
  }

 private:
  static constexpr std::uint32_t kEmpty = std::numeric_limits<std::uint32_t>::max();
  struct Slot {
    std::uint32_t group = kEmpty;
    std::uint32_t tag = 0;  // the hash's high half: the key's home slot, and most mismatches end here
  };
  static std::uint32_t tag_of(std::uint64_t h) { return static_cast<std::uint32_t>(h >> 32); }
  /// The slot a key's probe starts at: its tag's top bits (the table holds at most 2^32 slots).
  std::size_t home(std::uint32_t tag) const { return tag >> shift_; }
  void grow() {
    std::vector<Slot> old(std::max<std::size_t>(64, 2 * slots_.size()));
    old.swap(slots_);
    mask_ = slots_.size() - 1;
    shift_ = 32 - std::countr_zero(slots_.size());
    for (const Slot& s : old) {
      if (s.group == kEmpty) continue;
      std::size_t at = home(s.tag);
      while (slots_[at].group != kEmpty) at = (at + 1) & mask_;
      slots_[at] = s;
    }
  }
  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  int shift_ = 32;
  std::vector<GroupKey> keys_;  // by group
};

}  // namespace

TraceIndex::TraceIndex(const Trace& t) : trace(&t) {
  categories.resize(t.size());
  group_of.resize(t.size());
  const std::vector<char> host = host_flags(t);
  for (std::size_t i = 0; i < t.size(); ++i) categories[i] = categorize(t, i, host);
  const auto key_of = [&](std::size_t i) {
    return GroupKey{static_cast<std::uint8_t>(t.kinds()[i]), static_cast<std::uint8_t>(categories[i]),
                    static_cast<std::uint8_t>(t.src_mems()[i]), static_cast<std::uint8_t>(t.dst_mems()[i]), t.srcs()[i],
                    t.dsts()[i], t.issuers()[i], t.group_ids()[i], t.bytes()[i]};
  };
  // Where every operation has its own key, each lookup is a miss in a table far larger than the
  // caches: the slot of the key kAhead operations on is asked for before it is needed.
  constexpr std::size_t kAhead = 16;
  std::array<std::uint64_t, kAhead> hashes{};
  GroupTable groups_by_key;
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
    const OpKind kind = t.kinds()[i];
    const std::uint32_t group = t.group_ids()[i];
    if (i == 0)
      for (std::size_t k = 0; k < kAhead && k < t.size(); ++k) hashes[k] = hash_of(key_of(k));
    const GroupKey key = key_of(i);
    const std::uint64_t h = hashes[i % kAhead];
    if (i + kAhead < t.size()) {
      hashes[i % kAhead] = hash_of(key_of(i + kAhead));
      groups_by_key.prefetch(hashes[i % kAhead]);
    }
    const auto next = static_cast<std::uint32_t>(group_first.size());
    const std::uint32_t id = groups_by_key.find_or_add(key, h, next);
    if (id == next) {
      group_first.push_back(static_cast<std::uint32_t>(i));
      group_count.push_back(0);
    }
    group_of[i] = id;
    ++group_count[id];
    if (trace::is_collective(kind)) {
      const std::uint32_t g = group;
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
