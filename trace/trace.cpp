#include "trace/trace.hpp"

#include <cmath>
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

/// Whether two records say the same about their call: kind, size and group.
bool same_content(const Trace& t, std::size_t a, std::size_t b) {
  return t.kinds()[a] == t.kinds()[b] && t.bytes()[a] == t.bytes()[b] && t.op(a).group == t.op(b).group;
}

/// How many of `calls` hold records that disagree about their kind, size or group.
std::size_t disagreeing_calls(const Trace& t, const std::vector<std::vector<std::size_t>>& calls) {
  std::size_t disagreeing = 0;
  for (const auto& call : calls)
    disagreeing += std::any_of(call.begin(), call.end(), [&](std::size_t i) { return !same_content(t, call.front(), i); });
  return disagreeing;
}

/// The calls a rank's alignment (calls_by_content) may skip on either side beyond the difference
/// of their counts: records a profile lost inside its window on both ranks at once.
constexpr std::size_t kAlignmentSlack = 16;
/// The most cells (a call of the sequence so far by a record of the rank) one alignment holds:
/// 32 MiB of traceback; beyond it the calls pair in order.
constexpr std::size_t kMaxAlignmentCells = std::size_t{1} << 25;

/// The same by content, for any communicator: NCCL has every rank call its communicator's
/// collectives in one order, so each rank's records are that sequence with the calls its profile
/// did not record left out (a window that starts or ends a call apart, a lost record). The rank
/// with the most records gives the calls; each other rank's records are then aligned with the
/// calls so far: as many of them paired, in order, with calls of the same kind, size and group
/// as can be (a longest common subsequence), and of such pairings the one whose records start
/// nearest their calls' first records (a step's calls repeat every step: the count alone would pair
/// a rank with the step before as well as with its own). A record paired with no call is a call
/// of its own where it falls. Empty where an alignment would take more than kMaxAlignmentCells.
std::vector<std::vector<std::size_t>> calls_by_content(const Trace& t, const std::vector<std::vector<std::size_t>>& ranks) {
  std::size_t most = 0;
  for (std::size_t r = 1; r < ranks.size(); ++r)
    if (ranks[r].size() > ranks[most].size()) most = r;
  std::vector<std::vector<std::size_t>> calls;
  for (const std::size_t i : ranks[most]) calls.push_back({i});
  struct Score {
    std::int64_t paired = -1;  // -1: no alignment reaches the cell
    double apart_ns = 0;
    [[nodiscard]] bool better_than(const Score& o) const {
      return paired > o.paired || (paired == o.paired && apart_ns < o.apart_ns);
    }
  };
  enum Step : std::uint8_t { none, skip_call, skip_record, pair };
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    if (r == most) continue;
    const std::vector<std::size_t>& records = ranks[r];
    const std::size_t n = calls.size(), m = records.size();
    const std::size_t band = (n > m ? n - m : m - n) + kAlignmentSlack, width = 2 * band + 1;
    if ((n + 1) > kMaxAlignmentCells / width) return {};
    // Cell (i, j): the first i calls against the first j records, j - i within the band, at
    // column j - i + band of row i.
    std::vector<std::uint8_t> steps((n + 1) * width, none);
    std::vector<Score> previous(width), current(width);
    const auto start_ns = [&](std::size_t i) { return static_cast<double>(std::max<std::int64_t>(t.starts()[i], 0)); };
    // What each call and record says, read once (a cell compares one of each).
    using Content = std::tuple<OpKind, std::uint64_t, std::uint32_t>;
    const auto content = [&](std::size_t i) { return Content{t.kinds()[i], t.bytes()[i], t.op(i).group}; };
    std::vector<Content> call_content, record_content;
    call_content.reserve(n);
    record_content.reserve(m);
    for (const auto& call : calls) call_content.push_back(content(call.front()));
    for (const std::size_t i : records) record_content.push_back(content(i));
    for (std::size_t i = 0; i <= n; ++i) {
      for (std::size_t k = 0; k < width; ++k) {
        current[k] = Score{};
        const std::int64_t j = static_cast<std::int64_t>(i + k) - static_cast<std::int64_t>(band);
        if (j < 0 || j > static_cast<std::int64_t>(m)) continue;
        const auto take = [&](const Score& from, Step step, std::int64_t paired, double apart_ns) {
          if (from.paired < 0) return;
          const Score s{from.paired + paired, from.apart_ns + apart_ns};
          if (s.better_than(current[k])) {
            current[k] = s;
            steps[i * width + k] = step;
          }
        };
        if (i == 0 && j == 0) {
          current[k] = Score{0, 0};
          continue;
        }
        if (i > 0 && k + 1 < width) take(previous[k + 1], skip_call, 0, 0);
        if (j > 0 && k > 0) take(current[k - 1], skip_record, 0, 0);
        if (i > 0 && j > 0) {
          const auto jj = static_cast<std::size_t>(j) - 1;
          if (call_content[i - 1] == record_content[jj])
            take(previous[k], pair, 1, std::fabs(start_ns(calls[i - 1].front()) - start_ns(records[jj])));
        }
      }
      std::swap(previous, current);
    }
    // Back from (n, m), then the calls rebuilt in order with this rank's records in them.
    std::vector<Step> path;
    for (std::size_t i = n, j = m; i > 0 || j > 0;) {
      const Step step = static_cast<Step>(steps[i * width + (j + band - i)]);
      path.push_back(step);
      if (step == skip_call) --i;
      else if (step == skip_record) --j;
      else if (step == pair) --i, --j;
      else return {};  // unreachable: every cell in the band is reached
    }
    std::vector<std::vector<std::size_t>> merged;
    merged.reserve(n + m);
    std::size_t i = 0, j = 0;
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      if (*it == skip_call) merged.push_back(std::move(calls[i++]));
      else if (*it == skip_record) merged.push_back({records[j++]});
      else {
        merged.push_back(std::move(calls[i++]));
        merged.back().push_back(records[j++]);
      }
    }
    calls = std::move(merged);
  }
  return calls;
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
    bool timed = several_ranks;
    for (const auto& [rank, records] : by_rank) {
      for (const std::size_t i : records)
        timed = timed && trace.starts()[i] >= 0 && trace.durations()[i] >= 0 && ranks_run_together(kinds[i]);
      ranks.push_back(records);
    }
    std::vector<std::vector<std::size_t>> these = calls_in_order(ranks);
    if (timed && ranks.size() > 1) {
      std::vector<std::vector<std::size_t>> by_time = calls_by_time(trace, ranks);
      if (calls_that_ran_together(trace, by_time, ranks.size()) > calls_that_ran_together(trace, these, ranks.size()))
        these = std::move(by_time);
    } else if (several_ranks && ranks.size() > 1) {
      // Any other communicator (one that broadcasts too: DDP's buffers each step) pairs by content
      // where its ranks recorded different numbers of calls or order pairs records that disagree.
      const bool counts_differ = std::any_of(ranks.begin(), ranks.end(),
                                             [&](const auto& records) { return records.size() != ranks.front().size(); });
      if (counts_differ || disagreeing_calls(trace, these) > 0) {
        std::vector<std::vector<std::size_t>> by_content = calls_by_content(trace, ranks);
        if (!by_content.empty()) these = std::move(by_content);
      }
    }
    for (auto& c : these) {
      std::sort(c.begin(), c.end());
      calls.push_back(std::move(c));
    }
  }
  // In the order they ran: by their earliest recorded start where every record has one (a job's
  // ranks are one file's records after another, so a call paired by time that lacks rank 0's
  // record would otherwise follow every later call, and the replay's waits would run backwards),
  // else by their first record.
  std::vector<std::int64_t> first_start_ns(calls.size(), std::numeric_limits<std::int64_t>::max());
  bool all_timed = true;
  for (std::size_t k = 0; k < calls.size(); ++k)
    for (const std::size_t i : calls[k]) {
      all_timed = all_timed && trace.starts()[i] >= 0;
      first_start_ns[k] = std::min(first_start_ns[k], trace.starts()[i]);
    }
  if (!all_timed) std::fill(first_start_ns.begin(), first_start_ns.end(), 0);
  std::vector<std::size_t> order(calls.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(first_start_ns[a], calls[a].front()) < std::tie(first_start_ns[b], calls[b].front());
  });
  std::vector<std::vector<std::size_t>> ordered;
  ordered.reserve(calls.size());
  for (const std::size_t k : order) ordered.push_back(std::move(calls[k]));
  return ordered;
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
