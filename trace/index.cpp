#include "trace/index.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <limits>
#include <memory>
#include <new>
#include <unordered_set>
#include <vector>

#include "core/parallel.hpp"

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

/// Group ids by key, open addressing with linear probing: 8 bytes a slot, at most half full. A
/// slot keeps its group's id and its key's hash's high half (a tag); the key itself is read from
/// the group's first operation where tags match (a node-based map took 545-752 ns per distinct key,
/// most of a projection's time where every operation has its own size; then a copy of each key
/// beside the table was most of its memory; issue 17). A key's slot comes from its tag's top bits:
/// growing the table moves the slots without hashing their keys again.
class GroupTable {
 public:
  /// Asks the memory for the slot where a key of hash h starts its probe (a hint: the table may
  /// grow before that key comes).
  void prefetch(std::uint64_t h) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[home(tag_of(h))]);
  }
  /// The group of the key whose hash is h (`is_key_of(group)`: whether the key is that group's),
  /// or `next` (which the caller then creates) where it has none yet.
  template <class IsKeyOf>
  std::uint32_t find_or_add(std::uint64_t h, std::uint32_t next, const IsKeyOf& is_key_of) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    const std::uint32_t tag = tag_of(h);
    for (std::size_t at = home(tag);; at = (at + 1) & mask_) {
      Slot& slot = slots_[at];
      if (slot.group == kEmpty) {
        slot = {next, tag};
        ++size_;
        return next;
      }
      if (slot.tag == tag && is_key_of(slot.group)) return slot.group;
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
  std::size_t size_ = 0;
};

/// Which keys no other operation of the trace shares, told without a table: one pass marks, per
/// cell chosen by a key's hash, whether one or several operations' keys fell there (two bits a
/// cell, eight cells an operation: 2 bytes an operation); a key alone in its cell is alone in the
/// trace. Where most operations have their own size, the grouping table then holds only the few
/// operations that share a cell (1 - e^(-1/8), 12% of them), instead of 8 to 16 bytes a distinct
/// key (issue 17).
class SingletonSieve {
 public:
  explicit SingletonSieve(std::size_t ops)
      : cells_(std::bit_ceil(std::max<std::size_t>(64, 8 * ops))),
        // calloc: the kernel's zero pages, backed only where a cell is marked.
        words_(static_cast<std::uint64_t*>(std::calloc(cells_ / 32, sizeof(std::uint64_t)))) {
    if (!words_) throw std::bad_alloc();
  }
  void prefetch(std::uint64_t h) const { __builtin_prefetch(&words_[cell(h) / 32]); }
  /// Counts an operation whose key's hash is h: once, or more than once. Threads may add at once
  /// (each bit is set by an atomic or: the second key in a cell finds the first's bit whichever
  /// thread set it). A page's first touch is this write: a read first mapped the kernel's zero
  /// page, and the write after it copied the page and flushed the other cores' TLBs (perf: 4% of
  /// a distinct-size projection in those faults).
  void add(std::uint64_t h) {
    const std::size_t c = cell(h);
    const std::atomic_ref<std::uint64_t> word(words_[c / 32]);
    const unsigned shift = 2 * static_cast<unsigned>(c % 32);
    const std::uint64_t once = std::uint64_t{1} << shift;
    if (word.fetch_or(once, std::memory_order_relaxed) & once) word.fetch_or(once << 1, std::memory_order_relaxed);
  }
  /// Whether no other operation's key fell in the cell of hash h (after every operation's add).
  bool alone(std::uint64_t h) const {
    const std::size_t c = cell(h);
    return ((words_[c / 32] >> (2 * (c % 32))) & 2) == 0;
  }

 private:
  struct Free {
    void operator()(std::uint64_t* p) const { std::free(p); }
  };
  /// The hash's low bits (the table's slots come from its high bits).
  std::size_t cell(std::uint64_t h) const { return static_cast<std::size_t>(h) & (cells_ - 1); }
  std::size_t cells_;
  std::unique_ptr<std::uint64_t[], Free> words_;
};

/// Operations sampled, evenly over the trace, to tell whether most have their own key.
constexpr std::size_t kKeySample = 4096;

/// Operations per chunk of the passes that run on the machine's cores (categories, the sieve).
constexpr std::size_t kIndexChunkOps = std::size_t{1} << 18;

/// group_of's marks before the groups are numbered, where the sieve ran: a key no other operation
/// shares, and one that may be shared (a group id is below both: a trace holds at most
/// kMaxTraceOps operations).
constexpr std::uint32_t kAloneKey = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint32_t kSharedKey = kAloneKey - 1;
static_assert(kMaxTraceOps < kSharedKey);

}  // namespace

TraceIndex::TraceIndex(const Trace& t) : trace(&t) {
  const std::size_t n = t.size();
  categories.resize(n);
  group_of.resize(n);
  const std::vector<char> host = host_flags(t);
  parallel_chunks(n, kIndexChunkOps, [&](std::size_t, std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) categories[i] = categorize(t, i, host);
  });
  const auto key_of = [&](std::size_t i) {
    return GroupKey{static_cast<std::uint8_t>(t.kinds()[i]), static_cast<std::uint8_t>(categories[i]),
                    static_cast<std::uint8_t>(t.src_mems()[i]), static_cast<std::uint8_t>(t.dst_mems()[i]), t.srcs()[i],
                    t.dsts()[i], t.issuers()[i], t.group_ids()[i], t.bytes()[i]};
  };
  const auto hash_at = [&](std::size_t i) { return hash_of(key_of(i)); };
  // Where most operations have their own key (a sample says so), two passes on the machine's
  // cores find those that share theirs with none (SingletonSieve) and mark them in group_of: each
  // of them is a group of its own without a slot in the table, and without a hash in the pass
  // that numbers the groups (issue 17).
  bool sieved = false;
  {
    const std::size_t stride = std::max<std::size_t>(1, n / kKeySample);
    std::unordered_set<std::uint64_t> sampled;
    std::size_t samples = 0;
    for (std::size_t i = 0; i < n; i += stride, ++samples) sampled.insert(hash_at(i));
    sieved = 2 * sampled.size() > samples;
  }
  if (sieved) {
    SingletonSieve sieve(n);
    // Each lookup is a miss in a bit table far larger than the caches: the cell of the key
    // kSieveAhead operations on is asked for before it is needed.
    constexpr std::size_t kSieveAhead = 16;
    const auto sieve_pass = [&](const auto& visit) {
      parallel_chunks(n, kIndexChunkOps, [&](std::size_t, std::size_t begin, std::size_t end) {
        std::array<std::uint64_t, kSieveAhead> ahead{};
        for (std::size_t i = begin; i < end && i < begin + kSieveAhead; ++i) ahead[i % kSieveAhead] = hash_at(i);
        for (std::size_t i = begin; i < end; ++i) {
          const std::uint64_t h = ahead[i % kSieveAhead];
          if (i + kSieveAhead < end) {
            ahead[i % kSieveAhead] = hash_at(i + kSieveAhead);
            sieve.prefetch(ahead[i % kSieveAhead]);
          }
          visit(i, h);
        }
      });
    };
    sieve_pass([&](std::size_t, std::uint64_t h) { sieve.add(h); });
    sieve_pass([&](std::size_t i, std::uint64_t h) { group_of[i] = sieve.alone(h) ? kAloneKey : kSharedKey; });
    // Every operation but one may have its own group.
    group_first.reserve(n);
    group_count.reserve(n);
  }
  // The table's lookups miss too where it is large: the slot of the key kAhead operations on
  // (where sieved: of the next ones that may share their key) is asked for before it is needed.
  constexpr std::size_t kAhead = 16;
  const auto needs_table = [&](std::size_t i) { return !sieved || group_of[i] == kSharedKey; };
  std::array<std::uint64_t, kAhead> hashes{};
  for (std::size_t k = 0; k < kAhead && k < n; ++k)
    if (needs_table(k)) hashes[k] = hash_at(k);
  GroupTable groups_by_key;
  first_record.assign(t.endpoint_count(), std::numeric_limits<std::size_t>::max());
  std::vector<char> pair_seen(t.endpoint_count() * t.endpoint_count(), 0);
  std::vector<char> group_seen(t.group_count(), 0);
  std::array<std::vector<std::int64_t>, model::kCopyClassCount> small;
  auto note = [&](std::uint16_t e, std::size_t i) {
    if (first_record[e] == std::numeric_limits<std::size_t>::max()) first_record[e] = i;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint16_t s = t.srcs()[i], d = t.dsts()[i];
    note(s, i);
    note(d, i);
    const OpKind kind = t.kinds()[i];
    const std::uint32_t group = t.group_ids()[i];
    const bool in_table = needs_table(i);
    const std::uint64_t h = hashes[i % kAhead];
    if (i + kAhead < n && needs_table(i + kAhead)) {
      hashes[i % kAhead] = hash_at(i + kAhead);
      groups_by_key.prefetch(hashes[i % kAhead]);
    }
    const auto next = static_cast<std::uint32_t>(group_first.size());
    std::uint32_t id = next;
    if (in_table) {
      const GroupKey key = key_of(i);
      id = groups_by_key.find_or_add(h, next, [&](std::uint32_t g) { return key_of(group_first[g]) == key; });
    }
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
    if (measures_fixed_cost(kind, t.bytes()[i], t.durations()[i])) {
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
