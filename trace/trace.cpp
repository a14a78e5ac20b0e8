#include "trace/trace.hpp"

#include <cmath>
#include <optional>
#include <queue>
#include <set>
#include <map>
#include <numeric>
#include <tuple>

#include <limits>

#include <boost/container_hash/hash.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <array>
#include <charconv>

#include "core/error.hpp"
#include "core/strings.hpp"
#include "core/units.hpp"
#include "trace/limits.hpp"

namespace linkcast::trace {

namespace {

constexpr auto kOpKindNames = std::to_array<std::string_view>(
    {"copy", "access", "migrate", "memset", "allreduce", "allgather", "reducescatter", "broadcast", "reduce", "alltoall",
     "send", "recv", "kernel", "runtime", "annotation"});
static_assert(kOpKindNames.size() == kOpKindCount, "one name per OpKind");
}

std::string_view to_string(OpKind kind) { return kOpKindNames[static_cast<std::size_t>(kind)]; }

std::optional<OpKind> parse_op_kind(std::string_view name) { return enum_named<OpKind>(kOpKindNames, name); }

std::vector<std::string> op_kind_names() {
  return std::vector<std::string>(kOpKindNames.begin(), kOpKindNames.end());
}

bool is_collective(OpKind kind) {
  switch (kind) {
    case OpKind::allreduce:
    case OpKind::allgather:
    case OpKind::reducescatter:
    case OpKind::broadcast:
    case OpKind::reduce:
    case OpKind::alltoall: return true;
    default: return false;
  }
}

StringTable::StringTable() {
  strings_.emplace_back();
  index_.emplace("", 0);
}

std::uint32_t StringTable::intern(std::string_view s) {
  if (s.empty()) return 0;
  const auto it = index_.find(std::string(s));
  if (it != index_.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(strings_.size());
  strings_.emplace_back(s);
  index_.emplace(strings_.back(), id);
  return id;
}

std::optional<std::uint32_t> StringTable::find(std::string_view s) const {
  const auto it = index_.find(std::string(s));
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

Trace::Trace() { groups_.emplace_back(); }

std::uint16_t Trace::endpoint(std::string_view name) {
  const auto it = endpoint_index_.find(std::string(name));
  if (it != endpoint_index_.end()) return it->second;
  if (endpoints_.size() >= kNoEndpoint)
    throw InputError(fmt::format("trace has more than {} distinct endpoints", kNoEndpoint - 1));
  const auto id = static_cast<std::uint16_t>(endpoints_.size());
  endpoints_.emplace_back(name);
  endpoint_index_.emplace(endpoints_.back(), id);
  return id;
}

std::uint32_t Trace::add_group(const std::vector<std::uint16_t>& members) {
  if (members.empty()) return 0;
  const std::size_t h = boost::hash_range(members.begin(), members.end());
  for (auto [it, end] = group_index_.equal_range(h); it != end; ++it)
    if (groups_[it->second] == members) return it->second;
  groups_.push_back(members);
  const auto id = static_cast<std::uint32_t>(groups_.size() - 1);
  group_index_.emplace(h, id);
  return id;
}

void Trace::reserve(std::size_t n) {
  for (auto* v : {&src_, &dst_}) v->reserve(n);
  for (auto* v : {&src_mem_, &dst_mem_}) v->reserve(n);
  kind_.reserve(n);
  bytes_.reserve(n);
  start_.reserve(n);
  duration_.reserve(n);
  stream_.reserve(n);
  issuer_.reserve(n);
  for (auto* v : {&object_, &line_, &comm_, &group_, &name_, &thread_, &launch_, &kernel_}) v->reserve(n);
  root_.reserve(n);
  flags_.reserve(n);
}

void Trace::clear_operations() {
  record_files.clear();
  for (auto* v : {&src_, &dst_}) v->clear();
  for (auto* v : {&src_mem_, &dst_mem_}) v->clear();
  kind_.clear();
  bytes_.clear();
  start_.clear();
  duration_.clear();
  stream_.clear();
  issuer_.clear();
  for (auto* v : {&object_, &line_, &comm_, &group_, &name_, &thread_, &launch_, &kernel_}) v->clear();
  root_.clear();
  flags_.clear();
  kernels_.clear();
  application_ops_ = 0;
  sparse_held_ = false;
}

void Trace::shrink_to_fit() {
  kind_.shrink_to_fit();
  for (auto* v : {&src_, &dst_}) v->shrink_to_fit();
  for (auto* v : {&src_mem_, &dst_mem_}) v->shrink_to_fit();
  bytes_.shrink_to_fit();
  for (auto* v : {&start_, &duration_}) v->shrink_to_fit();
  stream_.shrink_to_fit();
  issuer_.shrink_to_fit();
  for (auto* v : {&object_, &line_, &comm_, &group_, &name_, &thread_, &launch_, &kernel_}) v->shrink_to_fit();
  root_.shrink_to_fit();
  flags_.shrink_to_fit();
  kernels_.shrink_to_fit();
}

void Trace::drop_application() {
  if (application_ops_ == 0) return;
  const auto kept = [&](std::size_t i) { return moves_data(kind_[i]); };
  const auto keep = [&](auto& column) {
    std::size_t k = 0;
    for (std::size_t i = 0; i < kind_.size(); ++i)
      if (kept(i)) column[k++] = column[i];
    column.resize(k);
    column.shrink_to_fit();
  };
  for (auto* v : {&src_, &dst_}) keep(*v);
  keep(src_mem_);
  keep(dst_mem_);
  keep(bytes_);
  keep(start_);
  keep(duration_);
  keep(stream_);
  issuer_.keep_if(kept);
  for (auto* v : {&object_, &line_, &comm_, &group_, &name_, &thread_}) v->keep_if(kept);
  root_.keep_if(kept);
  flags_.keep_if(kept);
  launch_.reset();
  kernel_.reset();
  // Each rank file's first record counts the records kept before it.
  for (std::size_t f = 0, kept_before = 0, i = 0; f < record_files.size(); ++f) {
    for (; i < record_files[f].first && i < kind_.size(); ++i) kept_before += kept(i);
    record_files[f].first = kept_before;
  }
  keep(kind_);  // last: the others read it
  kernels_.clear();
  application_ops_ = 0;
}

void Trace::order_by_start() {
  const std::size_t n = kind_.size();
  if (std::is_sorted(start_.begin(), start_.end())) return;
  record_files.clear();  // records of several files interleave: none is told by its place
  if (n >= kNoIndex) throw InputError("trace has more operations than linkcast can index");
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), std::uint32_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return start_[a] < start_[b]; });
  const auto permute = [&](auto& column) {
    std::remove_reference_t<decltype(column)> out;
    out.reserve(n);
    for (std::uint32_t i : order) out.push_back(column[i]);
    column.swap(out);
  };
  permute(kind_);
  permute(src_);
  permute(dst_);
  permute(src_mem_);
  permute(dst_mem_);
  permute(bytes_);
  permute(start_);
  permute(duration_);
  permute(stream_);
  issuer_.permute(order);
  for (auto* v : {&object_, &line_, &comm_, &group_, &name_, &thread_, &launch_, &kernel_}) v->permute(order);
  root_.permute(order);
  flags_.permute(order);
  if (!launch_.uniform()) {
    std::vector<std::uint32_t> position(n);
    for (std::size_t k = 0; k < n; ++k) position[order[k]] = static_cast<std::uint32_t>(k);
    launch_.map_values([&](std::uint32_t record) { return record < n ? position[record] : kNoIndex; });
  }
}

std::uint32_t Trace::add_kernel_info(const KernelInfo& info) {
  if (kernels_.size() >= kNoIndex) throw InputError("trace has more kernel records than linkcast can index");
  kernels_.push_back(info);
  return static_cast<std::uint32_t>(kernels_.size() - 1);
}

namespace {

/// One communicator's calls from its ranks' records (each rank's in trace order), by order: the
/// k-th record of every rank.
std::vector<std::vector<std::size_t>> calls_in_order(const std::vector<std::vector<std::size_t>>& ranks) {
  std::vector<std::vector<std::size_t>> calls;
  for (const auto& records : ranks)
    for (std::size_t k = 0; k < records.size(); ++k) {
      if (calls.size() <= k) calls.emplace_back();
      calls[k].push_back(records[k]);
    }
  return calls;
}

/// Whether every rank's part of a collective of this kind needs every other rank's data, so that
/// the ranks' kernels of one call overlap in time (allreduce, all-gather, reduce-scatter,
/// all-to-all). A broadcast's root may finish before a receiver starts (2 x H200: a 1920 B
/// broadcast's root kernel ended 59 us before its peer's began, tests/data/real/h200-2gpu-ddp2/
/// app_ddp_train_pinned).
bool ranks_run_together(OpKind kind) {
  return kind == OpKind::allreduce || kind == OpKind::allgather || kind == OpKind::reducescatter ||
         kind == OpKind::alltoall;
}

/// The same by recorded time, for collectives whose ranks run together: the call of the record
/// that ends first takes every other rank's next record that started by then and ended nearer
/// its end than the end of the first rank's next call (a call's ranks end within microseconds of
/// each other; a rank's next call ends with the first rank's next); a rank whose next record is
/// not so did not record this call.
std::vector<std::vector<std::size_t>> calls_by_time(const Trace& t, const std::vector<std::vector<std::size_t>>& ranks) {
  std::vector<std::vector<std::size_t>> calls;
  std::vector<std::size_t> next(ranks.size(), 0);
  while (true) {
    std::size_t first = ranks.size();
    for (std::size_t r = 0; r < ranks.size(); ++r)
      if (next[r] < ranks[r].size() &&
          (first == ranks.size() || recorded_end_ns(t, ranks[r][next[r]]) < recorded_end_ns(t, ranks[first][next[first]])))
        first = r;
    if (first == ranks.size()) return calls;
    const std::vector<std::size_t>& own = ranks[first];
    const std::int64_t end_ns = recorded_end_ns(t, own[next[first]]);
    const std::int64_t following_ns =
        next[first] + 1 < own.size() ? end_ns + (recorded_end_ns(t, own[next[first] + 1]) - end_ns) / 2
                                     : std::numeric_limits<std::int64_t>::max();
    auto& call = calls.emplace_back();
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      if (next[r] >= ranks[r].size()) continue;
      const std::size_t head = ranks[r][next[r]];
      if (r == first || (t.starts()[head] <= end_ns && recorded_end_ns(t, head) <= following_ns)) {
        call.push_back(head);
        ++next[r];
      }
    }
  }
}

/// How many of `calls` hold a record of every one of `ranks` ranks, all of them overlapping in
/// recorded time (each began before every other ended).
std::size_t calls_that_ran_together(const Trace& t, const std::vector<std::vector<std::size_t>>& calls, std::size_t ranks) {
  std::size_t together = 0;
  for (const auto& call : calls) {
    if (call.size() != ranks) continue;
    std::int64_t latest_start_ns = std::numeric_limits<std::int64_t>::min();
    std::int64_t earliest_end_ns = std::numeric_limits<std::int64_t>::max();
    for (const std::size_t i : call) {
      latest_start_ns = std::max(latest_start_ns, t.starts()[i]);
      earliest_end_ns = std::min(earliest_end_ns, recorded_end_ns(t, i));
    }
    together += latest_start_ns <= earliest_end_ns;
  }
  return together;
}

/// What a collective's record says about its call: kind, size and group.
using CallContent = std::tuple<OpKind, std::uint64_t, std::uint32_t>;

CallContent content_of(const Trace& t, std::size_t i) { return {t.kinds()[i], t.bytes()[i], t.op(i).group}; }

/// A call being gathered from its ranks' records (calls_by_content).
struct PendingCall {
  std::vector<std::size_t> records;
  std::int64_t at_ns, end_ns;  // its first record's start and end, on the clock of the calls' rank
  CallContent content;
};

/// Where a record or call lies in time for pairing: its end for collectives whose ranks run
/// together (a rank that launched early waits in its kernel for the others, so its start may lie
/// milliseconds before theirs while the ends agree), else its start.
std::int64_t pairing_ns(OpKind kind, std::int64_t start_ns, std::int64_t end_ns) {
  return ranks_run_together(kind) ? end_ns : start_ns;
}
std::int64_t pairing_ns(const PendingCall& c) { return pairing_ns(std::get<0>(c.content), c.at_ns, c.end_ns); }
std::int64_t pairing_ns(const Trace& t, std::size_t i, std::int64_t offset_ns) {
  return pairing_ns(t.kinds()[i], t.starts()[i] - offset_ns, recorded_end_ns(t, i) - offset_ns);
}

/// The calls of each content in time (pairing_ns), and how far from each a record may lie to pair
/// with it: half the way to its like neighbours (a step's calls recur every step: a record pairs
/// with its own step's, never with the step before).
class LikeCalls {
 public:
  explicit LikeCalls(const std::vector<PendingCall>& calls) : calls_(calls), reach_ns_(calls.size(), kFar) {
    for (std::size_t c = 0; c < calls.size(); ++c) like_[calls[c].content].push_back(c);
    for (auto& [key, list] : like_) {
      std::stable_sort(list.begin(), list.end(), [&](std::size_t a, std::size_t b) { return at(a) < at(b); });
      for (std::size_t k = 0; k < list.size(); ++k) {
        if (k > 0) reach_ns_[list[k]] = std::min(reach_ns_[list[k]], (at(list[k]) - at(list[k - 1])) / 2);
        if (k + 1 < list.size()) reach_ns_[list[k]] = std::min(reach_ns_[list[k]], (at(list[k + 1]) - at(list[k])) / 2);
      }
    }
  }
  /// The like call nearest `at_ns` (pairing_ns), or none.
  [[nodiscard]] std::optional<std::size_t> nearest(const CallContent& key, std::int64_t at_ns) const {
    const auto [from, to] = around(key, at_ns, 1);
    std::optional<std::size_t> best;
    for (auto c = from; c != to; ++c)
      if (!best || std::llabs(at(*c) - at_ns) < std::llabs(at(*best) - at_ns)) best = *c;
    return best;
  }
  /// Up to `n` like calls either side of `at_ns`.
  [[nodiscard]] std::pair<std::vector<std::size_t>::const_iterator, std::vector<std::size_t>::const_iterator> around(
      const CallContent& key, std::int64_t at_ns, std::ptrdiff_t n) const {
    const auto it = like_.find(key);
    if (it == like_.end()) return {kNone.end(), kNone.end()};
    const std::vector<std::size_t>& list = it->second;
    const auto after =
        std::lower_bound(list.begin(), list.end(), at_ns, [&](std::size_t c, std::int64_t v) { return at(c) < v; });
    return {after - std::min<std::ptrdiff_t>(n, after - list.begin()), after + std::min<std::ptrdiff_t>(n, list.end() - after)};
  }
  /// Each content's calls, in time (pairing_ns).
  [[nodiscard]] const std::map<CallContent, std::vector<std::size_t>>& lists() const { return like_; }
  [[nodiscard]] std::int64_t reach_ns(std::size_t c) const { return reach_ns_[c]; }
  [[nodiscard]] std::int64_t at(std::size_t c) const { return pairing_ns(calls_[c]); }

 private:
  static constexpr std::int64_t kFar = std::numeric_limits<std::int64_t>::max();
  static inline const std::vector<std::size_t> kNone{};
  const std::vector<PendingCall>& calls_;
  std::map<CallContent, std::vector<std::size_t>> like_;
  std::vector<std::int64_t> reach_ns_;
};

/// A call's ranks' kernels end within 6-37 us of each other in the real DDP jobs
/// (tests/data/real/h200-2gpu-ddp*); a step's length varies by more.
constexpr std::int64_t kEndsAgreeNs = 100'000;

/// How a rank's records fell on the calls under one clock offset (place_records).
struct Placement {
  std::int64_t offset_ns = 0;
  std::vector<std::size_t> call_of;  // per record, its call, or the calls' count for none
  std::size_t pairs = 0, together = 0, ends_agree = 0;
  /// Whether most of its pairs of collectives whose ranks run together end together (a call's
  /// ranks end together; one step's calls paired with another step's end apart by however much
  /// the steps' lengths differ).
  [[nodiscard]] bool plausible() const { return 2 * ends_agree >= together; }
};

/// Places `records` (one rank's, in order) on `calls` with the rank's clock `offset_ns` ahead of
/// theirs: each record, its start less the offset, pairs with the nearest like call within its
/// reach that comes after the record's previous pair.
Placement place_records(const Trace& t, const std::vector<PendingCall>& calls, const LikeCalls& like,
                        const std::vector<std::size_t>& records, std::int64_t offset_ns) {
  Placement p;
  p.offset_ns = offset_ns;
  p.call_of.assign(records.size(), calls.size());
  std::vector<char> taken(calls.size(), 0);
  std::int64_t last_paired_ns = std::numeric_limits<std::int64_t>::min();
  for (std::size_t k = 0; k < records.size(); ++k) {
    const std::size_t i = records[k];
    const std::int64_t at_ns = pairing_ns(t, i, offset_ns);
    const auto c = like.nearest(content_of(t, i), at_ns);
    if (!c || taken[*c] || calls[*c].at_ns <= last_paired_ns || std::llabs(at_ns - like.at(*c)) > like.reach_ns(*c))
      continue;
    taken[*c] = 1;
    p.call_of[k] = *c;
    last_paired_ns = calls[*c].at_ns;
    ++p.pairs;
    if (ranks_run_together(t.kinds()[i])) {
      ++p.together;
      p.ends_agree += std::llabs(recorded_end_ns(t, i) - offset_ns - calls[*c].end_ns) <= kEndsAgreeNs;
    }
  }
  return p;
}

/// Clock offsets to try for `records` against `calls`: how far each content's first and last
/// record lie from its first and last call, and of how far each record lies from the like calls
/// nearest it (pairing_ns), up to three either side, the median and the five values most records
/// share (within kEndsAgreeNs).
std::vector<std::int64_t> offset_candidates(const Trace& t, const LikeCalls& like, const std::vector<std::size_t>& records) {
  std::vector<std::int64_t> offsets;
  std::map<CallContent, std::pair<std::size_t, std::size_t>> ends_of;  // a content's first and last record
  for (const std::size_t i : records) {
    const auto [from, to] = like.around(content_of(t, i), pairing_ns(t, i, 0), 3);
    for (auto c = from; c != to; ++c) offsets.push_back(pairing_ns(t, i, 0) - like.at(*c));
    const auto [it, fresh] = ends_of.try_emplace(content_of(t, i), i, i);
    if (!fresh) it->second.second = i;
  }
  std::vector<std::int64_t> candidates;
  if (offsets.empty()) return candidates;
  // The clocks apart by however far each content's first (and last) record lies from its first
  // (and last) call: the same windows on clocks further apart than the like calls nearest.
  for (const auto& [key, first_last] : ends_of) {
    const std::vector<std::size_t>& list = like.lists().at(key);
    candidates.push_back(pairing_ns(t, first_last.first, 0) - like.at(list.front()));
    candidates.push_back(pairing_ns(t, first_last.second, 0) - like.at(list.back()));
    if (candidates.size() >= 8) break;
  }
  std::sort(offsets.begin(), offsets.end());
  candidates.push_back(offsets[offsets.size() / 2]);
  std::vector<std::pair<std::size_t, std::int64_t>> clusters;  // (offsets, their median)
  for (std::size_t a = 0; a < offsets.size();) {
    std::size_t b = a + 1;
    while (b < offsets.size() && offsets[b] - offsets[b - 1] <= kEndsAgreeNs) ++b;
    clusters.emplace_back(b - a, offsets[(a + b) / 2]);
    a = b;
  }
  std::stable_sort(clusters.begin(), clusters.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  for (std::size_t k = 0; k < std::min<std::size_t>(clusters.size(), 5); ++k) candidates.push_back(clusters[k].second);
  return candidates;
}

/// The rank's placement: with its clock the calls' (ranks of one host share a clock) where that
/// pairs records plausibly; else (a job's hosts' clocks apart) the plausible candidate under which
/// the most calls' ends agree, then the most records pair, then the offset nearest 0 (the caller
/// pairs in order where none is plausible). A profile's window a step later than another's pairs as
/// many records with the steps before as with their own, but their ends do not agree. Clocks apart
/// by about half the time between like calls cannot be told from a window a call later, nor
/// windows that share no step of a loop regular to kEndsAgreeNs from clocks whole steps apart.
Placement place_rank(const Trace& t, const std::vector<PendingCall>& calls, const LikeCalls& like,
                     const std::vector<std::size_t>& records) {
  Placement best = place_records(t, calls, like, records, 0);
  if (best.pairs > 0 && best.plausible()) return best;
  for (const std::int64_t offset_ns : offset_candidates(t, like, records)) {
    Placement p = place_records(t, calls, like, records, offset_ns);
    if (!p.plausible()) continue;
    const bool better = !best.plausible() || p.ends_agree > best.ends_agree ||
                        (p.ends_agree == best.ends_agree &&
                         (p.pairs > best.pairs || (p.pairs == best.pairs && std::llabs(offset_ns) < std::llabs(best.offset_ns))));
    if (better) best = std::move(p);
  }
  return best;
}

/// Whether a record of this rank that paired with no call lies, between the same two pairs, within
/// kEndsAgreeNs of a call this rank lacks (both at pairing_ns): the rank recorded there a call the
/// others say is of another kind, size or group (two ranks that each lost a record leave their lone
/// record and lacking call apart by the calls between them).
bool disagrees(const Trace& t, const std::vector<PendingCall>& calls, const std::vector<std::size_t>& records,
               const Placement& p) {
  std::vector<char> taken(calls.size(), 0);
  for (const std::size_t c : p.call_of)
    if (c < calls.size()) taken[c] = 1;
  std::vector<std::int64_t> paired_ns;
  for (std::size_t c = 0; c < calls.size(); ++c)
    if (taken[c]) paired_ns.push_back(calls[c].at_ns);
  const auto stretch = [&](std::int64_t at_ns) {
    return std::upper_bound(paired_ns.begin(), paired_ns.end(), at_ns) - paired_ns.begin();
  };
  std::vector<std::pair<std::int64_t, std::ptrdiff_t>> lacking;  // (pairing_ns, stretch), in time
  for (std::size_t c = 0; c < calls.size(); ++c)
    if (!taken[c]) lacking.emplace_back(pairing_ns(calls[c]), stretch(calls[c].at_ns));
  std::sort(lacking.begin(), lacking.end());
  for (std::size_t k = 0; k < records.size(); ++k) {
    if (p.call_of[k] < calls.size()) continue;
    const std::size_t i = records[k];
    const std::int64_t at_ns = pairing_ns(t, i, p.offset_ns);
    const std::ptrdiff_t own = stretch(t.starts()[i] - p.offset_ns);
    for (auto it = std::lower_bound(lacking.begin(), lacking.end(), std::pair{at_ns - kEndsAgreeNs, std::ptrdiff_t{0}});
         it != lacking.end() && it->first <= at_ns + kEndsAgreeNs; ++it)
      if (it->second == own) return true;
  }
  return false;
}

/// The same by content and recorded time, for any communicator whose records all carry times
/// (one that broadcasts too, as DDP's buffers each step): NCCL has every rank call its
/// communicator's collectives in one order, so each rank's records are that sequence with the
/// calls its profile did not record left out (a window that starts or ends a call or a step apart,
/// a lost record). The rank with the most records gives the calls; each other rank's records are
/// then placed on them (place_rank), and a record placed on none is a call of its own. Empty
/// where a rank's records pair with no call plausibly, or disagree with the calls (disagrees):
/// the communicator then pairs in order, which names a disagreement.
std::vector<std::vector<std::size_t>> calls_by_content(const Trace& t, const std::vector<std::vector<std::size_t>>& ranks) {
  std::size_t most = 0;
  for (std::size_t r = 1; r < ranks.size(); ++r)
    if (ranks[r].size() > ranks[most].size()) most = r;
  std::vector<PendingCall> calls;
  for (const std::size_t i : ranks[most]) calls.push_back({{i}, t.starts()[i], recorded_end_ns(t, i), content_of(t, i)});
  const auto by_time = [](const PendingCall& a, const PendingCall& b) { return a.at_ns < b.at_ns; };
  std::stable_sort(calls.begin(), calls.end(), by_time);
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    if (r == most || ranks[r].empty()) continue;
    const LikeCalls like(calls);
    const Placement p = place_rank(t, calls, like, ranks[r]);
    // No clock offset pairs this rank's records plausibly with the calls (clocks too far apart
    // for its like calls, or windows that share nothing): pairing in order, as before content.
    if (p.pairs == 0 || !p.plausible() || disagrees(t, calls, ranks[r], p)) return {};
    const std::size_t before = calls.size();
    for (std::size_t k = 0; k < ranks[r].size(); ++k) {
      const std::size_t i = ranks[r][k];
      if (p.call_of[k] < before)
        calls[p.call_of[k]].records.push_back(i);
      else
        calls.push_back({{i}, t.starts()[i] - p.offset_ns, recorded_end_ns(t, i) - p.offset_ns, content_of(t, i)});
    }
    // The calls in time again for the next rank (only this rank's lone records came after them).
    if (calls.size() > before) {
      std::stable_sort(calls.begin() + static_cast<std::ptrdiff_t>(before), calls.end(), by_time);
      std::inplace_merge(calls.begin(), calls.begin() + static_cast<std::ptrdiff_t>(before), calls.end(), by_time);
    }
  }
  std::vector<std::vector<std::size_t>> out;
  out.reserve(calls.size());
  for (PendingCall& c : calls) out.push_back(std::move(c.records));
  return out;
}

/// `calls` in an order that keeps every rank's records on each communicator in the order it
/// recorded them (NCCL runs them so), and otherwise by their earliest recorded start:
/// by that start alone, a call one rank lacks could come after a call whose other records began
/// earlier on a clock that runs behind (a job's hosts), against its own rank's order, and the
/// replay's waits would run backwards. Each call's records are sorted. Where the ranks' orders
/// contradict each other (records paired across each other), by the earliest start.
std::vector<std::vector<std::size_t>> ordered_calls(const Trace& t, std::vector<std::vector<std::size_t>> calls) {
  std::vector<std::int64_t> first_start_ns(calls.size(), std::numeric_limits<std::int64_t>::max());
  bool all_timed = true;
  for (std::size_t k = 0; k < calls.size(); ++k) {
    std::sort(calls[k].begin(), calls[k].end());
    for (const std::size_t i : calls[k]) {
      all_timed = all_timed && t.starts()[i] >= 0;
      first_start_ns[k] = std::min(first_start_ns[k], t.starts()[i]);
    }
  }
  if (!all_timed) std::fill(first_start_ns.begin(), first_start_ns.end(), 0);
  const auto earlier = [&](std::size_t a, std::size_t b) {
    return std::tie(first_start_ns[a], calls[a].front()) < std::tie(first_start_ns[b], calls[b].front());
  };
  // Each rank's calls on each communicator in the order of its records (NCCL runs a rank's calls
  // on a communicator in the order they were issued; two communicators' calls may run in either
  // order on two ranks).
  std::map<std::pair<std::uint16_t, std::uint64_t>, std::vector<std::pair<std::size_t, std::size_t>>> by_rank;
  for (std::size_t k = 0; k < calls.size(); ++k)
    for (const std::size_t i : calls[k]) by_rank[{t.srcs()[i], communicator_key(t.op(i))}].emplace_back(i, k);
  std::vector<std::vector<std::size_t>> rank_calls;
  for (auto& [rank, records] : by_rank) {
    std::sort(records.begin(), records.end());
    auto& list = rank_calls.emplace_back();
    for (const auto& [record, call] : records) list.push_back(call);
  }
  // A call is ready when it heads every rank's list it is on.
  std::vector<std::size_t> heads_needed(calls.size(), 0), heads_reached(calls.size(), 0);
  for (const auto& list : rank_calls)
    for (const std::size_t k : list) ++heads_needed[k];
  std::vector<std::size_t> position(rank_calls.size(), 0);
  auto later = [&](std::size_t a, std::size_t b) { return earlier(b, a); };
  std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(later)> ready(later);
  const auto reach_head = [&](std::size_t list) {
    if (position[list] >= rank_calls[list].size()) return;
    const std::size_t k = rank_calls[list][position[list]];
    if (++heads_reached[k] == heads_needed[k]) ready.push(k);
  };
  for (std::size_t l = 0; l < rank_calls.size(); ++l) reach_head(l);
  std::vector<std::size_t> order;
  order.reserve(calls.size());
  // Each call's lists (one flat array, a call's from first_list[k]), to advance them once it is placed.
  std::vector<std::size_t> first_list(calls.size() + 1, 0), lists_of;
  for (const auto& list : rank_calls)
    for (const std::size_t k : list) ++first_list[k + 1];
  for (std::size_t k = 0; k < calls.size(); ++k) first_list[k + 1] += first_list[k];
  lists_of.resize(first_list.back());
  std::vector<std::size_t> filled(first_list.begin(), first_list.end() - 1);
  for (std::size_t l = 0; l < rank_calls.size(); ++l)
    for (const std::size_t k : rank_calls[l]) lists_of[filled[k]++] = l;
  while (!ready.empty()) {
    const std::size_t k = ready.top();
    ready.pop();
    order.push_back(k);
    for (std::size_t x = first_list[k]; x < first_list[k + 1]; ++x) {
      ++position[lists_of[x]];
      reach_head(lists_of[x]);
    }
  }
  if (order.size() != calls.size()) {
    order.resize(calls.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), earlier);
  }
  std::vector<std::vector<std::size_t>> out;
  out.reserve(calls.size());
  for (const std::size_t k : order) out.push_back(std::move(calls[k]));
  return out;
}

}  // namespace

std::vector<std::vector<std::size_t>> collective_calls(const Trace& trace) {
  // Each communicator's records by rank, communicators in order of their first record.
  std::map<std::uint64_t, std::size_t> comm_of;
  std::vector<std::map<std::uint16_t, std::vector<std::size_t>>> comms;
  const auto& kinds = trace.kinds();
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (!is_collective(kinds[i])) continue;
    const Op op = trace.op(i);
    if (op.group == 0 || trace.group(op.group).empty()) continue;
    const auto [it, fresh] = comm_of.try_emplace(communicator_key(op), comms.size());
    if (fresh) comms.emplace_back();
    comms[it->second][op.src].push_back(i);
  }
  // A job's ranks recorded apart (several files) pair by time where the communicator runs only
  // collectives whose ranks run together and time pairs more calls whose records all overlap
  // than order does: a profiling window that starts one call later on one rank would otherwise
  // pair every call after it with the other ranks' next. Where it does not (the files' clocks
  // apart, or every call recorded), order pairs them.
  const bool several_ranks = rank_files(trace) > 1;
  std::vector<std::vector<std::size_t>> calls;
  for (const auto& by_rank : comms) {
    std::vector<std::vector<std::size_t>> ranks;
    bool all_timed = true, together = true;
    for (const auto& [rank, records] : by_rank) {
      for (const std::size_t i : records) {
        // A record without a duration ends where it starts (recorded_end_ns): one untimed record
        // leaves its communicator's other calls paired by their times.
        all_timed = all_timed && trace.starts()[i] >= 0;
        together = together && ranks_run_together(kinds[i]);
      }
      ranks.push_back(records);
    }
    const bool timed = several_ranks && all_timed && together;
    std::vector<std::vector<std::size_t>> these = calls_in_order(ranks);
    if (timed && ranks.size() > 1) {
      std::vector<std::vector<std::size_t>> by_time = calls_by_time(trace, ranks);
      if (calls_that_ran_together(trace, by_time, ranks.size()) > calls_that_ran_together(trace, these, ranks.size()))
        these = std::move(by_time);
    } else if (several_ranks && ranks.size() > 1 && all_timed) {
      // Any other communicator (one that broadcasts too: DDP's buffers each step) pairs by content
      // and time: order would pair a rank's records with the calls of a step before where its
      // profile's window starts a step later.
      std::vector<std::vector<std::size_t>> by_content = calls_by_content(trace, ranks);
      if (!by_content.empty()) these = std::move(by_content);
    }
    for (auto& c : these) {
      std::sort(c.begin(), c.end());
      calls.push_back(std::move(c));
    }
  }
  // In the order they ran (ordered_calls): a job's ranks are one file's records after another,
  // so a call paired by time that lacks rank 0's record would otherwise follow every later call,
  // and the replay's waits would run backwards.
  return ordered_calls(trace, std::move(calls));
}

Op Trace::op(std::size_t i) const {
  Op o;
  o.kind = kind_[i];
  o.src = src_[i];
  o.dst = dst_[i];
  o.issuer = issuer_[i];
  o.src_mem = src_mem_[i];
  o.dst_mem = dst_mem_[i];
  o.bytes = bytes_[i];
  o.start_ns = start_[i];
  o.duration_ns = duration_[i];
  o.stream = stream_[i];
  o.object = object_[i];
  o.line = line_[i];
  o.comm = comm_[i];
  o.group = group_[i];
  o.root = root_[i];
  o.name = name_[i];
  o.thread = thread_[i];
  o.launch = launch_[i];
  o.kernel = kernel_[i];
  o.flags = flags_[i];
  return o;
}

std::size_t Trace::memory_bytes() const {
  const std::size_t dense = kind_.capacity() * sizeof(OpKind) + (src_.capacity() + dst_.capacity()) * sizeof(std::uint16_t) +
                            (src_mem_.capacity() + dst_mem_.capacity()) * sizeof(model::MemKind) +
                            (bytes_.capacity() + start_.capacity() + duration_.capacity()) * sizeof(std::int64_t) +
                            stream_.capacity() * sizeof(std::uint32_t);
  std::size_t sparse = issuer_.capacity_bytes() + root_.capacity_bytes() + flags_.capacity_bytes();
  for (const auto* v : {&object_, &line_, &comm_, &group_, &name_, &thread_, &launch_, &kernel_}) sparse += v->capacity_bytes();
  return dense + sparse + kernels_.capacity() * sizeof(KernelInfo);
}

void Trace::check_byte_counts(const std::string& where) const {
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < bytes_.size(); ++i) {
    const std::uint64_t b = bytes_[i];
    if (b > kMaxOpBytes) {
      throw InputError(fmt::format("{}: {}: {} bytes, more than any device holds ({} at most): the record is "
                                   "corrupt, or its size is not a byte count",
                                   where, describe_record(i), b, format_bytes(kMaxOpBytes)));
    }
    total += b;  // b <= kMaxOpBytes and total <= kMaxTraceBytes before: no wrap
    if (total > kMaxTraceBytes) {
      throw InputError(fmt::format("{}: its operations move more than {} together (passed at {}), more than "
                                   "linkcast counts exactly; give a part of the trace",
                                   where, format_bytes(kMaxTraceBytes), describe_record(i)));
    }
  }
}

void Trace::warn_repeated_transfers(const std::string& where) {
  // Repeats start together: each is compared with the 64 before it of its start (bounded: a
  // hostile trace may start every record at once).
  constexpr std::size_t kWindow = 64;
  std::size_t repeated = 0;
  for (std::size_t k = 0; k < size();) {
    std::size_t end = k + 1;
    while (end < size() && start_[end] == start_[k]) ++end;
    for (std::size_t a = k + 1; a < end; ++a) {
      if (!moves_data(kind_[a])) continue;
      for (std::size_t b = std::max(k, a > kWindow ? a - kWindow : 0); b < a; ++b) {
        if (kind_[a] == kind_[b] && duration_[a] == duration_[b] && bytes_[a] == bytes_[b] && src_[a] == src_[b] &&
            dst_[a] == dst_[b] && stream_[a] == stream_[b] && src_mem_[a] == src_mem_[b] && dst_mem_[a] == dst_mem_[b]) {
          ++repeated;
          break;
        }
      }
    }
    k = end;
  }
  if (repeated == 0) return;
  warnings.push_back(fmt::format("{}: {} copies, memsets or collectives repeat an earlier one exactly (kind, ends, "
                                 "memory, bytes, stream, start and duration), and count again: a trace joined with "
                                 "itself, or rows inserted twice? Give each record once",
                                 where, repeated));
}

void Trace::warn_implausible_span(const std::string& where) {
  if (start_.empty()) return;
  // In doubles: a reader bounds a start and a duration each within int64, not their sum.
  const auto end_of = [this](std::size_t i) { return static_cast<double>(start_[i]) + static_cast<double>(duration_[i]); };
  std::size_t first = 0, last = 0;
  for (std::size_t i = 1; i < start_.size(); ++i) {
    if (start_[i] < start_[first]) first = i;
    if (end_of(i) > end_of(last)) last = i;
  }
  const double span_s = (end_of(last) - static_cast<double>(start_[first])) * 1e-9;
  if (span_s <= kMaxPlausibleSpanS) return;
  warnings.push_back(fmt::format("{}: the trace spans {:.3g} days, {} to {}: no profiler records a week; its times "
                                 "are corrupt, and so are the spans computed from them",
                                 where, span_s / 86400.0, describe_record(first), describe_record(last)));
}

void Trace::warn_work_before_launch(const std::string& where) {
  constexpr std::int64_t kToleranceNs = 1'000'000;  // CPU and GPU timestamps of one profile agree to microseconds
  std::size_t early = 0, first = 0;
  std::int64_t most_ns = 0;
  for (std::size_t i = 0; i < start_.size(); ++i) {
    const std::uint32_t launch = launch_[i];
    if (launch == kNoIndex || launch >= start_.size()) continue;
    const std::int64_t before_ns = start_[launch] - start_[i];
    if (before_ns <= kToleranceNs) continue;
    if (early++ == 0) first = i;
    most_ns = std::max(most_ns, before_ns);
  }
  if (early == 0) return;
  warnings.push_back(fmt::format("{}: {} GPU operations start before the runtime call that launched them, by up to "
                                 "{:.3g} ms (the first: {}): their times are corrupt, or the profile's CPU and GPU "
                                 "clocks are apart; a replay starts them after their launches",
                                 where, early, static_cast<double>(most_ns) * 1e-6, describe_record(first)));
}

std::string Trace::describe_record(std::size_t i) const {
  if (record_line_offset > 0) return fmt::format("record {} (line {})", i + 1, record_line_offset + i);
  return fmt::format("record {}", i + 1);
}

std::string Trace::locate_record(std::size_t i) const {
  const auto after = std::upper_bound(record_files.begin(), record_files.end(), i,
                                      [](std::size_t r, const auto& file) { return r < file.first; });
  if (after == record_files.begin())
    return fmt::format("{}: {}", source_file.empty() ? "trace" : source_file, describe_record(i));
  const auto& [first, file] = *std::prev(after);
  return fmt::format("{}: record {}", file, i - first + 1);
}

std::string_view outside_its_group_fix(const Trace& trace) {
  if (trace.format == "csv") return "a collective is recorded once per member, with src = dst = that member";
  return "a rank's collectives name its groups' ranks, and a rank runs on gpu<rank> once placed: give the trace with "
         "its distributedInfo, or every rank's trace of the job";
}

std::uint16_t peer_by_rank(const Trace& trace, std::size_t i) {
  if (!(trace.flags()[i] & kPeerByRank)) return kNoEndpoint;
  const OpKind kind = trace.kinds()[i];
  return kind == OpKind::send ? trace.dsts()[i] : kind == OpKind::recv ? trace.srcs()[i] : kNoEndpoint;
}

std::vector<std::uint16_t> gpus_run_on(const Trace& trace) {
  // A send's or recv's peer named by its rank is another rank's GPU, not one this trace ran on.
  std::vector<char> runs(trace.endpoint_count(), 0);
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const std::uint16_t peer = peer_by_rank(trace, i);
    for (const std::uint16_t e : {trace.srcs()[i], trace.dsts()[i]})
      if (e < runs.size() && (e != peer || trace.srcs()[i] == trace.dsts()[i])) runs[e] = 1;
  }
  std::vector<std::uint16_t> gpus;
  for (std::size_t e = 0; e < runs.size(); ++e)
    if (runs[e] && endpoint_index(trace.endpoint_name(static_cast<std::uint16_t>(e)), "gpu") >= 0)
      gpus.push_back(static_cast<std::uint16_t>(e));
  return gpus;
}

std::vector<std::uint16_t> gpus_named(const Trace& trace) {
  const std::vector<std::uint16_t> run_on = gpus_run_on(trace);
  // One rank's trace alone may be placed on a node smaller than its job: the GPUs it runs on.
  if (run_on.size() <= 1) return run_on;
  // A job's ranks (or one process's GPUs): every GPU its operations name, and the members of its
  // collectives' groups (the groups a reader adds are its collectives'), whose ranks the job's
  // files may lack; each takes a GPU of the node.
  std::vector<char> named(trace.endpoint_count(), 0);
  for (std::size_t i = 0; i < trace.size(); ++i)
    for (const std::uint16_t e : {trace.srcs()[i], trace.dsts()[i]})
      if (e < named.size()) named[e] = 1;
  for (std::uint32_t g = 1; g < trace.group_count(); ++g)
    for (const std::uint16_t m : trace.group(g))
      if (m < named.size()) named[m] = 1;
  std::vector<std::uint16_t> gpus;
  for (std::size_t e = 0; e < named.size(); ++e)
    if (named[e] && endpoint_index(trace.endpoint_name(static_cast<std::uint16_t>(e)), "gpu") >= 0)
      gpus.push_back(static_cast<std::uint16_t>(e));
  return gpus;
}

int endpoint_index(std::string_view name, std::string_view prefix) {
  if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix) return -1;
  int value = 0;
  const char* begin = name.data() + prefix.size();
  const char* end = name.data() + name.size();
  const auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr != end) return -1;
  return value;
}

std::int64_t recorded_end_ns(const Trace& trace, std::size_t i) {
  const std::int64_t start = trace.starts()[i], duration = std::max<std::int64_t>(0, trace.durations()[i]);
  return duration > std::numeric_limits<std::int64_t>::max() - start ? std::numeric_limits<std::int64_t>::max()
                                                                     : start + duration;
}

double recorded_span_ns(const Trace& trace) {
  std::int64_t lo = std::numeric_limits<std::int64_t>::max(), hi = std::numeric_limits<std::int64_t>::min();
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const std::int64_t s = trace.starts()[i];
    if (s < 0) continue;
    lo = std::min(lo, s);
    hi = std::max(hi, recorded_end_ns(trace, i));
  }
  return hi > lo ? static_cast<double>(hi - lo) : 0.0;
}

bool is_nccl_kernel(std::string_view name) {
  const auto starts_with_lower = [](std::string_view s, std::string_view lower_prefix) {
    if (s.size() < lower_prefix.size()) return false;
    for (std::size_t k = 0; k < lower_prefix.size(); ++k)
      if (std::tolower(static_cast<unsigned char>(s[k])) != lower_prefix[k]) return false;
    return true;
  };
  if (starts_with_lower(name, "void ")) name.remove_prefix(5);
  if (starts_with_lower(name, "_z")) {
    name.remove_prefix(2);
    while (!name.empty() && std::isdigit(static_cast<unsigned char>(name.front()))) name.remove_prefix(1);
  }
  return starts_with_lower(name, "nccl");
}

bool times_gpu_activity(const Trace& trace) {
  return trace.format == "kineto" || trace.format == "nsys" || trace.format == "nvprof";
}

double unstaged_bytes(const Trace& trace, double bytes) {
  return times_gpu_activity(trace) ? std::min(bytes, kPageableStagingChunkBytes) : 0.0;
}

model::HostRegime recorded_regime(const Trace& trace, double bytes) {
  return bytes <= kPageableStagingChunkBytes && times_gpu_activity(trace) ? model::HostRegime::direct
                                                                          : model::HostRegime::staged;
}

}  // namespace linkcast::trace
