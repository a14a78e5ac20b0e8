#include "matrix/matrix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <unordered_map>

#include "core/progress.hpp"
#include "core/error.hpp"
#include "core/strings.hpp"
#include "core/units.hpp"
#include "topology/node.hpp"
#include "topology/placement.hpp"

namespace linkcast::matrix {

using trace::OpKind;

namespace {

constexpr auto kTypeNames = std::to_array<std::string_view>(
    {"copy", "copy-via-host", "zero-copy", "peer-access", "unified-memory", "collective", "send-recv"});
static_assert(kTypeNames.size() == kCommTypeCount, "one name per CommType");

constexpr auto kTypeDescriptions = std::to_array<std::string_view>({
    "explicit copies: host-device (ComScribe case 4), within a GPU, and between GPUs with peer access (1.1, 1.2)",
    "peer copies without peer access, staged through the host: both legs (ComScribe case 1.3)",
    "device-initiated access to mapped pinned host memory (ComScribe case 5)",
    "device-initiated loads and stores to another GPU's memory (ComScribe case 2, Snoopie)",
    "unified-memory page migrations (ComScribe cases 3 and 6)",
    "NCCL collectives, decomposed into the peer transfers NCCL makes",
    "point-to-point sends (NCCL send/recv)"});
static_assert(kTypeDescriptions.size() == kCommTypeCount, "one description per CommType");

/// Sort order of endpoint names: "host", cpu0.., gpu0.., then the rest by name.
struct EndpointOrder {
  int cls = 2;
  int index = 0;
  std::string name;
  bool operator<(const EndpointOrder& o) const {
    if (cls != o.cls) return cls < o.cls;
    if (index != o.index) return index < o.index;
    return name < o.name;
  }
};

EndpointOrder order_of(const std::string& name) {
  if (name == "host") return {0, -1, name};
  if (const int c = trace::endpoint_index(name, "cpu"); c >= 0) return {0, c, name};
  if (const int g = trace::endpoint_index(name, "gpu"); g >= 0) return {1, g, name};
  return {2, 0, name};
}

struct Cell {
  std::uint64_t bytes = 0;
  std::uint64_t count = 0;
};

/// One collective's decomposition as per-rank rows: bytes and transfers from rank i to j.
struct Decomposed {
  bool ok = false;
  std::vector<std::uint64_t> bytes, count;
  std::vector<std::uint64_t> row_inter_bytes;  // per rank: bytes sent to other ranks
};

struct CollKey {
  OpKind kind;
  std::size_t n;
  std::uint64_t bytes;
  int root;
  int channels;
  bool operator<(const CollKey& o) const {
    return std::tie(kind, n, bytes, root, channels) < std::tie(o.kind, o.n, o.bytes, o.root, o.channels);
  }
};

/// Per (communicator, operation) accumulators for the mpisee table.
struct OpAcc {
  std::vector<std::uint64_t> records, bytes, lower, inter_lower;  // per rank
  std::uint64_t moved = 0;
};

struct CommAcc {
  std::string name;
  std::uint32_t group = 0;
  std::map<OpKind, OpAcc> ops;
  std::uint64_t send_records = 0, send_bytes = 0, recv_records = 0, recv_bytes = 0;
};

}  // namespace

std::string_view to_string(CommType type) { return kTypeNames[static_cast<std::size_t>(type)]; }
std::string_view describe(CommType type) { return kTypeDescriptions[static_cast<std::size_t>(type)]; }

void Matrix::resize(std::size_t size) {
  n = size;
  bytes.assign(n * n, 0);
  count.assign(n * n, 0);
}

std::uint64_t Matrix::total_bytes() const { return std::accumulate(bytes.begin(), bytes.end(), std::uint64_t{0}); }
std::uint64_t Matrix::total_count() const { return std::accumulate(count.begin(), count.end(), std::uint64_t{0}); }

std::uint64_t Matrix::sent_bytes(std::size_t i) const {
  std::uint64_t s = 0;
  for (std::size_t j = 0; j < n; ++j) s += bytes[i * n + j];
  return s;
}

std::uint64_t Matrix::received_bytes(std::size_t j) const {
  std::uint64_t s = 0;
  for (std::size_t i = 0; i < n; ++i) s += bytes[i * n + j];
  return s;
}

std::optional<View> parse_view(std::string_view name) {
  if (name == "type") return View::type;
  if (name == "object") return View::object;
  if (name == "line") return View::line;
  if (name == "comm") return View::comm;
  if (name == "device") return View::device;
  return std::nullopt;
}

std::optional<Metric> parse_metric(std::string_view name) {
  if (name == "bytes") return Metric::bytes;
  if (name == "count") return Metric::count;
  return std::nullopt;
}

namespace {

/// matrix::build, section by section: the endpoints and where each trace endpoint lands, one scan
/// over the operations into the matrices and accumulators, then the attribution rows, the
/// communicator rows and the checks.
class Builder {
 public:
  Builder(const trace::Trace& trace, const Options& options) : trace_(trace), options_(options), node_(options.node) {
    r_.source = trace.source_file;
    r_.format = trace.format;
    r_.ops = trace.size();
    r_.collectives = options.collectives;
    r_.node_channels = options.collectives.channels == 0 && node_ != nullptr;
    if (!options.ran.empty()) {
      ran_of_.assign(trace.size(), kNotRan);
      ran_decomposed_.assign(options.ran.size(), nullptr);
    }
    for (std::size_t k = 0; k < options.ran.size(); ++k)
      for (std::size_t record : options.ran[k].records)
        if (record < ran_of_.size()) ran_of_[record] = static_cast<std::uint32_t>(k);
  }

  Report run() {
    list_endpoints();
    place_endpoints();
    r_.total.resize(n_);
    for (Matrix& m : r_.by_type) m.resize(n_);
    devices_.resize((n_ + 1) * kCommTypeCount);
    p2p_sent_.resize(n_ * n_);
    p2p_received_.resize(n_ * n_);
    have_sends_ = std::find(trace_.kinds().begin(), trace_.kinds().end(), OpKind::send) != trace_.kinds().end();
    // The operations scanned, then the tables built from them (the line stays, its time running).
    ProgressLine progress("matrices");
    scan(progress);
    add_unrecorded_ranks();
    progress.update(trace_.size(), trace_.size(), "operations");
    attribution_rows();
    communicator_rows();
    point_to_point_check();
    collective_checks();
    return std::move(r_);
  }

 private:
  /// The matrices' endpoints: host(s) first, then GPUs, then the rest. On a node, the trace's
  /// `host` is left out (placed on a CPU of the node) and every CPU and GPU of the node is listed.
  void list_endpoints() {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < trace_.endpoint_count(); ++i) {
      const std::string& name = trace_.endpoint_name(static_cast<std::uint16_t>(i));
      if (name == "host") host_id_ = static_cast<std::uint16_t>(i);
      if (node_ && name == "host") continue;  // placed on a CPU of the node (place_endpoints)
      names.push_back(name);
    }
    // The matrices are dense, n x n per communication type: a trace of a few thousand made-up
    // endpoint names must not ask for gigabytes.
    if (names.size() > kMaxMatrixEndpoints) {
      throw InputError(fmt::format("{}: {} distinct endpoints; the matrices hold at most {} (a node has at most a few "
                                   "hundred CPUs and GPUs): name the trace's endpoints after the node's",
                                   trace_.source_file.empty() ? "trace" : trace_.source_file, names.size(),
                                   kMaxMatrixEndpoints));
    }
    if (node_) {
      for (const auto& e : node_->endpoints) {
        if (e.kind != topology::EndpointKind::cpu && e.kind != topology::EndpointKind::gpu) continue;
        if (std::find(names.begin(), names.end(), e.id) == names.end()) names.push_back(e.id);
      }
      for (std::size_t i = 0; i < trace_.endpoint_count(); ++i) {
        const std::string& name = trace_.endpoint_name(static_cast<std::uint16_t>(i));
        if (name != "host" && node_->find(name) < 0) {
          r_.warnings.push_back(fmt::format("endpoint '{}' of the trace is not on node '{}' ({})", name, node_->name,
                                            node_->file));
        }
      }
    }
    // ComScribe's matrices always have the host first, even when nothing touched it.
    if (std::none_of(names.begin(), names.end(), [](const std::string& s) { return trace::is_host_name(s); }))
      names.push_back("host");
    std::vector<EndpointOrder> order;
    for (const std::string& name : names) order.push_back(order_of(name));
    std::sort(order.begin(), order.end());
    for (const EndpointOrder& o : order) {
      r_.endpoints.push_back(o.name);
      if (o.cls == 0) ++r_.host_count;
    }
    n_ = r_.endpoints.size();
    if (n_ > 4000) throw InputError(fmt::format("matrix: {} endpoints; at most 4000 fit a matrix", n_));
  }

  std::int32_t index_of(const std::string& name) const {
    for (std::size_t i = 0; i < n_; ++i)
      if (r_.endpoints[i] == name) return static_cast<std::int32_t>(i);
    return -1;
  }

  /// Each trace endpoint's matrix index and, on a node, where `host` lands beside it
  /// (topology::place_host).
  void place_endpoints() {
    const std::size_t count = trace_.endpoint_count();
    ep_index_.assign(count, -1);
    host_beside_.assign(count, -1);
    is_host_.assign(count, 0);
    is_gpu_.assign(count, 0);
    const bool place_host = node_ && host_id_ != trace::kNoEndpoint;
    auto host_index = [&](int other) {
      return index_of(node_->endpoints[static_cast<std::size_t>(topology::place_host(*node_, other))].id);
    };
    for (std::size_t i = 0; i < count; ++i) {
      const std::string& name = trace_.endpoint_name(static_cast<std::uint16_t>(i));
      ep_index_[i] = index_of(name);
      is_host_[i] = trace::is_host_name(name) ? 1 : 0;
      is_gpu_[i] = trace::endpoint_index(name, "gpu") >= 0 ? 1 : 0;
      if (place_host) host_beside_[i] = host_index(i == host_id_ ? -1 : node_->find(name));
    }
    if (place_host) host_alone_ = host_index(-1);
  }

  /// Matrix index of endpoint `ep` of an operation whose other end is `other`.
  std::size_t place(std::uint16_t ep, std::uint16_t other) const {
    if (ep == host_id_ && node_)
      return static_cast<std::size_t>(other != trace::kNoEndpoint ? host_beside_[other] : host_alone_);
    return static_cast<std::size_t>(ep_index_[ep]);
  }

  /// Adds a movement to the object, line and device attributions. Keys pack (id, owner, issuer,
  /// type) into 64 bits; issuer n_ means "(host API)".
  void attribute(std::uint32_t object, std::uint32_t line, std::size_t owner, std::size_t issuer, CommType type,
                 std::uint64_t bytes, std::uint64_t count) {
    const auto t = static_cast<std::uint64_t>(type);
    const std::uint64_t ok = (std::uint64_t{object} << 32) | (std::uint64_t{owner} << 20) |
                             (std::uint64_t{issuer} << 8) | t;
    if (ok != last_object_key_) {
      last_object_ = &objects_[ok];
      last_object_key_ = ok;
    }
    last_object_->bytes += bytes;
    last_object_->count += count;
    const std::uint64_t lk = (std::uint64_t{line} << 32) | (std::uint64_t{issuer} << 8) | t;
    if (lk != last_line_key_) {
      last_line_ = &lines_[lk];
      last_line_key_ = lk;
    }
    last_line_->bytes += bytes;
    last_line_->count += count;
    Cell& d = devices_[issuer * kCommTypeCount + static_cast<std::size_t>(type)];
    d.bytes += bytes;
    d.count += count;
  }

  std::size_t host_api() const { return n_; }

  /// The accumulator of op's communicator: one row per (name, member list), so a name reused for
  /// other members is reported, not merged.
  CommAcc& comm_acc(const trace::Op& op) {
    auto [it, fresh] = comms_.try_emplace(trace::communicator_key(op));
    if (fresh) {
      it->second.group = op.group;
      if (op.comm) {
        it->second.name = trace_.comms[op.comm];
      } else {
        std::vector<std::string> members;
        for (std::uint16_t m : trace_.group(op.group)) members.push_back(trace_.endpoint_name(m));
        it->second.name = members.empty() ? "(no communicator)" : "(unnamed: " + join(members, ";") + ")";
      }
    }
    if (op.comm && op.group) {
      const auto [g, first] = name_group_.try_emplace(op.comm, op.group);
      if (!first && g->second != op.group &&
          std::find(name_conflicts_.begin(), name_conflicts_.end(), trace_.comms[op.comm]) == name_conflicts_.end()) {
        name_conflicts_.push_back(trace_.comms[op.comm]);
      }
    }
    return it->second;
  }

  /// NCCL channels for op's collective: as given; else, on a node, what NCCL would find for its
  /// GPUs; else the default.
  int channels_for(const trace::Op& op) {
    int channels = options_.collectives.channels;
    if (channels == 0 && node_) {
      auto [g, fresh_group] = group_channels_.try_emplace(op.group, 0);
      if (fresh_group) {
        std::vector<int> gpus;
        for (std::uint16_t m : trace_.group(op.group)) {
          const int e = node_->find(trace_.endpoint_name(m));
          if (e >= 0) gpus.push_back(e);
        }
        g->second = gpus.size() == trace_.group(op.group).size() ? nccl::default_channels(*node_, gpus) : 0;
      }
      channels = g->second;
    }
    return channels;
  }

  /// op's collective decomposed into per-rank rows (cached by what decides it): as it ran where
  /// Options::ran lists it, else as Options::collectives says; not ok, with a warning, when NCCL's
  /// decomposition refuses it.
  const Decomposed& decomposed(const trace::Op& op, std::size_t size, std::size_t record) {
    if (record < ran_of_.size() && ran_of_[record] != kNotRan) {
      const std::uint32_t k = ran_of_[record];
      if (!options_.ran[k].parts.empty()) {
        // Once per call (its records are its ranks), then shared by calls of the same shares.
        if (ran_decomposed_[k] == nullptr) ran_decomposed_[k] = &decomposed_as_run(options_.ran[k].parts, size);
        return *ran_decomposed_[k];
      }
    }
    const int channels = channels_for(op);
    const CollKey key{op.kind, size, op.bytes, std::max<int>(op.root, 0), channels};
    auto [it, fresh] = cache_.try_emplace(key);
    if (!fresh) return it->second;
    Decomposed& d = it->second;
    nccl::CollectiveSpec spec = options_.collectives.spec(op.kind, static_cast<int>(size), op.bytes, key.root);
    spec.channels = channels;
    // A tree is only NCCL's for allreduce, broadcast and reduce: the others run rings.
    if (spec.algo == nccl::CollAlgo::tree && nccl::per_rank_block(op.kind)) spec.algo = nccl::CollAlgo::ring;
    // A recorded size need not be a whole number of the assumed datatype's elements.
    const std::uint64_t unit = std::uint64_t{spec.elem_bytes} * (nccl::per_rank_block(op.kind) ? size : 1);
    if (op.bytes % unit != 0) spec.elem_bytes = 1;
    nccl::PairTotals totals;
    try {
      totals = nccl::pair_totals(spec);
    } catch (const InputError& e) {
      r_.warnings.push_back(fmt::format("{}: cannot decompose this {} of {} bytes over {} ranks ({}); its traffic "
                                        "is left out of the matrices",
                                        trace_.describe_record(record), trace::to_string(op.kind), op.bytes, size,
                                        e.what()));
      return d;
    }
    d.ok = true;
    d.row_inter_bytes = totals.sent_bytes();
    d.bytes = std::move(totals.bytes);
    d.count = std::move(totals.count);
    return d;
  }

  /// A call decomposed as a simulation ran it: each ring's share, its ranks placed on the ring
  /// (cached by the shares).
  const Decomposed& decomposed_as_run(std::span<const nccl::RingPart> parts, std::size_t size) {
    std::vector<std::uint64_t> key;
    for (const nccl::RingPart& p : parts) {
      const nccl::CollectiveSpec& s = p.spec;
      key.insert(key.end(), {static_cast<std::uint64_t>(s.kind), static_cast<std::uint64_t>(s.nranks), s.bytes,
                             static_cast<std::uint64_t>(s.root), static_cast<std::uint64_t>(s.algo),
                             static_cast<std::uint64_t>(s.channels), s.chunk_bytes, s.elem_bytes});
      key.insert(key.end(), p.ring.begin(), p.ring.end());
    }
    auto [it, fresh] = ran_cache_.try_emplace(std::move(key));
    if (!fresh) return it->second;
    Decomposed& d = it->second;
    d.ok = true;
    d.bytes.assign(size * size, 0);
    d.count.assign(size * size, 0);
    d.row_inter_bytes.assign(size, 0);
    for (const nccl::RingPart& p : parts) {
      if (p.spec.bytes == 0) continue;
      const nccl::PairTotals totals = nccl::pair_totals(p.spec);
      const auto n = static_cast<std::size_t>(totals.nranks);
      for (std::size_t a = 0; a < n; ++a) {
        for (std::size_t b = 0; b < n; ++b) {
          const auto i = static_cast<std::size_t>(p.ring[a]), j = static_cast<std::size_t>(p.ring[b]);
          d.bytes[i * size + j] += totals.bytes[a * n + b];
          d.count[i * size + j] += totals.count[a * n + b];
          if (i != j) d.row_inter_bytes[i] += totals.bytes[a * n + b];
        }
      }
    }
    return d;
  }

  /// Every operation into the matrices, the attributions and the communicator accumulators.
  void scan(ProgressLine& progress) {
    const std::size_t count = trace_.size();
    for (std::size_t i = 0; i < count; ++i) {
      if ((i & 0x3FFFF) == 0 && i > 0) progress.update(i, count, "operations");
      const trace::Op op = trace_.op(i);
      switch (op.kind) {
        case OpKind::memset: ++r_.ignored_ops; break;
        case OpKind::copy:
          if (i + 1 < count && add_copy_via_host(op, trace_.op(i + 1))) ++i;
          else add_movement(op, CommType::copy);
          break;
        case OpKind::access:
          add_movement(op, (is_host_[op.src] || is_host_[op.dst]) ? CommType::zero_copy : CommType::peer_access);
          break;
        case OpKind::migrate: add_movement(op, CommType::unified_memory); break;
        case OpKind::send:
        case OpKind::recv: add_send_recv(op); break;
        default: add_collective(op, i); break;
      }
    }
  }

  /// A peer copy staged through the host, GPU -> host then host -> another GPU on the same stream
  /// and line: both legs, as copy_via_host. False when `op` and `next` are not such a pair.
  bool add_copy_via_host(const trace::Op& op, const trace::Op& next) {
    if (!is_gpu_[op.src] || !is_host_[op.dst]) return false;
    if (next.kind != OpKind::copy || next.src != op.dst || !is_gpu_[next.dst] || next.dst == op.src ||
        next.bytes != op.bytes || next.stream != op.stream || next.line != op.line)
      return false;
    const std::size_t a = place(op.src, op.dst), h1 = place(op.dst, op.src);
    const std::size_t h2 = place(next.src, next.dst), b = place(next.dst, next.src);
    for (const auto& [s, d, o] : {std::tuple{a, h1, op}, std::tuple{h2, b, next}}) {
      r_.total.add(s, d, o.bytes, 1);
      r_.by_type[static_cast<std::size_t>(CommType::copy_via_host)].add(s, d, o.bytes, 1);
      attribute(o.object, o.line, is_host_[o.src] ? d : s, host_api(), CommType::copy_via_host, o.bytes, 1);
    }
    r_.ops_by_type[static_cast<std::size_t>(CommType::copy_via_host)] += 2;
    return true;
  }

  /// A send or recv: into the per-pair check and its communicator's row; the matrices count one
  /// side only (the sends where the trace has any).
  void add_send_recv(const trace::Op& op) {
    const std::size_t s = place(op.src, op.dst), d = place(op.dst, op.src);
    Cell& c = (op.kind == OpKind::send ? p2p_sent_ : p2p_received_)[s * n_ + d];
    c.bytes += op.bytes;
    ++c.count;
    if (op.comm || op.group) {
      CommAcc& acc = comm_acc(op);
      if (op.kind == OpKind::send) {
        ++acc.send_records;
        acc.send_bytes += op.bytes;
      } else {
        ++acc.recv_records;
        acc.recv_bytes += op.bytes;
      }
    }
    if ((op.kind == OpKind::send) == have_sends_) add_movement(op, CommType::send_recv);
  }

  /// One rank's record of a collective: its communicator's accumulators and its row of the
  /// decomposed call.
  void add_collective(const trace::Op& op, std::size_t record) {
    const auto& members = trace_.group(op.group);
    const auto pos = std::find(members.begin(), members.end(), op.src);
    if (pos == members.end()) {
      std::vector<std::string> m;
      for (std::uint16_t e : members) m.push_back(trace_.endpoint_name(e));
      throw InputError(fmt::format("{}: {} recorded on {} whose group ({}) does not include it; {}",
                                   trace_.locate_record(record), trace::to_string(op.kind),
                                   trace_.endpoint_name(op.src), m.empty() ? "empty" : join(m, ";"),
                                   trace::outside_its_group_fix(trace_)));
    }
    const auto rank = static_cast<std::size_t>(pos - members.begin());
    const std::size_t size = members.size();
    OpAcc& oa = comm_acc(op).ops[op.kind];
    if (oa.records.empty()) {
      oa.records.assign(size, 0);
      oa.bytes.assign(size, 0);
      oa.lower.assign(size, 0);
      oa.inter_lower.assign(size, 0);
    }
    ++oa.records[rank];
    oa.bytes[rank] += op.bytes;
    oa.lower[rank] += nccl::mpisee_lower_bound_bytes(op.kind, static_cast<int>(size), op.bytes);
    oa.inter_lower[rank] += nccl::inter_rank_lower_bound_bytes(op.kind, static_cast<int>(size), op.bytes);
    ++r_.ops_by_type[static_cast<std::size_t>(CommType::collective)];
    const Decomposed& d = decomposed(op, size, record);
    if (!d.ok) {
      ++undecomposed_;
      return;
    }
    oa.moved += d.row_inter_bytes[rank];
    add_row(op, members, rank, d);
  }

  /// Rank `rank`'s row of op's decomposed call into the matrices and the attributions.
  std::uint64_t add_row(const trace::Op& op, const std::vector<std::uint16_t>& members, std::size_t rank,
                        const Decomposed& d) {
    const std::size_t size = members.size();
    const std::size_t s = place(members[rank], members[rank]);
    std::uint64_t row_bytes = 0, row_count = 0;
    Matrix& m = r_.by_type[static_cast<std::size_t>(CommType::collective)];
    for (std::size_t j = 0; j < size; ++j) {
      const std::uint64_t c = d.count[rank * size + j];
      if (c == 0) continue;
      const std::uint64_t b = d.bytes[rank * size + j];
      const std::size_t t = place(members[j], members[j]);
      m.add(s, t, b, c);
      r_.total.add(s, t, b, c);
      row_bytes += b;
      row_count += c;
    }
    attribute(op.object, op.line, s, s, CommType::collective, row_bytes, row_count);
    return row_bytes;
  }

  /// Options::ran: the rows of the members each call has no record of, made with its first record.
  void add_unrecorded_ranks() {
    for (const RanCall& call : options_.ran) {
      if (call.records.empty()) continue;
      const trace::Op op = trace_.op(call.records.front());
      const auto& members = trace_.group(op.group);
      std::vector<bool> recorded(members.size(), false);
      for (std::size_t record : call.records) {
        const auto at = std::find(members.begin(), members.end(), trace_.op(record).src);
        if (at != members.end()) recorded[static_cast<std::size_t>(at - members.begin())] = true;
      }
      if (std::find(recorded.begin(), recorded.end(), false) == recorded.end()) continue;
      const Decomposed& d = decomposed(op, members.size(), call.records.front());
      if (!d.ok) continue;
      ++r_.unrecorded_calls;
      for (std::size_t rank = 0; rank < members.size(); ++rank) {
        if (recorded[rank]) continue;
        r_.unrecorded_bytes += add_row(op, members, rank, d);
        const std::string who = fmt::format("{} of {}", trace_.endpoint_name(members[rank]), comm_acc(op).name);
        if (std::find(r_.unrecorded_ranks.begin(), r_.unrecorded_ranks.end(), who) == r_.unrecorded_ranks.end())
          r_.unrecorded_ranks.push_back(who);
      }
    }
  }

  /// One movement from op's source to its destination, attributed to its owner and issuer.
  void add_movement(const trace::Op& op, CommType type) {
    const std::size_t s = place(op.src, op.dst), d = place(op.dst, op.src);
    r_.total.add(s, d, op.bytes, 1);
    r_.by_type[static_cast<std::size_t>(type)].add(s, d, op.bytes, 1);
    ++r_.ops_by_type[static_cast<std::size_t>(type)];
    std::size_t owner = s, issuer = host_api();
    switch (op.kind) {
      case OpKind::access: {
        const bool store = op.issuer == op.src;
        issuer = store ? s : d;
        owner = store ? d : s;
        break;
      }
      case OpKind::copy: owner = is_host_[op.src] ? d : s; break;
      case OpKind::migrate: issuer = d; break;  // the faulting processor pulls the page
      default: issuer = s; break;               // send/recv: the sender
    }
    attribute(op.object, op.line, owner, issuer, type, op.bytes, 1);
  }

  std::string issuer_name(std::size_t i) const {
    return i == host_api() ? std::string("(host API)") : r_.endpoints[i];
  }

  /// The object, line and device rows, largest first.
  void attribution_rows() {
    for (const auto& [key, cell] : objects_) {
      AttributionRow row;
      const auto object = static_cast<std::uint32_t>(key >> 32);
      row.key = object ? trace_.objects[object] : "(unknown)";
      row.owner = r_.endpoints[(key >> 20) & 0xFFF];
      row.issuer = issuer_name((key >> 8) & 0xFFF);
      row.type = static_cast<CommType>(key & 0xFF);
      row.bytes = cell.bytes;
      row.count = cell.count;
      r_.objects.push_back(std::move(row));
    }
    for (const auto& [key, cell] : lines_) {
      AttributionRow row;
      const auto line = static_cast<std::uint32_t>(key >> 32);
      row.key = line ? trace_.lines[line] : "(unknown)";
      row.issuer = issuer_name((key >> 8) & 0xFFF);
      row.type = static_cast<CommType>(key & 0xFF);
      row.bytes = cell.bytes;
      row.count = cell.count;
      r_.lines.push_back(std::move(row));
    }
    auto by_bytes = [](const AttributionRow& a, const AttributionRow& b) {
      if (a.bytes != b.bytes) return a.bytes > b.bytes;
      return std::tie(a.key, a.owner, a.issuer, a.type) < std::tie(b.key, b.owner, b.issuer, b.type);
    };
    std::sort(r_.objects.begin(), r_.objects.end(), by_bytes);
    std::sort(r_.lines.begin(), r_.lines.end(), by_bytes);
    for (std::size_t i = 0; i <= n_; ++i) {
      for (std::size_t t = 0; t < kCommTypeCount; ++t) {
        const Cell& c = devices_[i * kCommTypeCount + t];
        if (c.count == 0 && c.bytes == 0) continue;
        r_.devices.push_back({issuer_name(i), static_cast<CommType>(t), c.bytes, c.count});
      }
    }
  }

  /// mpisee's row of one collective on one communicator, noting members that missed calls and
  /// volumes below the lower bound.
  CommOpRow collective_row(const CommAcc& acc, OpKind kind, const OpAcc& oa, const std::vector<std::string>& members,
                           std::size_t calls) {
    CommOpRow op;
    op.op = kind;
    // The calls as the replay pairs them (trace::collective_calls): members whose profiles hold
    // as many records may still each lack calls the others recorded (windows a step apart).
    op.calls = std::max<std::uint64_t>(*std::max_element(oa.records.begin(), oa.records.end()), calls);
    const auto calls_min = *std::min_element(oa.records.begin(), oa.records.end());
    op.complete = calls_min == op.calls;
    // Each member records every call, so one member's sums are the call totals; the most
    // complete member's are used.
    const std::size_t best =
        static_cast<std::size_t>(std::max_element(oa.records.begin(), oa.records.end()) - oa.records.begin());
    op.bytes = oa.bytes[best];
    op.lower_bound_bytes = oa.lower[best];
    op.inter_rank_bound_bytes = oa.inter_lower[best];
    op.moved_bytes = oa.moved;
    if (!op.complete) {
      for (std::size_t k = 0; k < oa.records.size(); ++k) {
        if (oa.records[k] != op.calls) {
          unrecorded_member_ |= oa.records[k] == 0;
          incomplete_.push_back(fmt::format("{} on '{}': {} recorded {} of {} calls", trace::to_string(kind), acc.name,
                                            members[k], oa.records[k], op.calls));
        }
      }
    }
    if (op.moved_bytes < op.inter_rank_bound_bytes) {
      below_bound_.push_back(fmt::format("{} on '{}': {} bytes moved between ranks < lower bound {}",
                                         trace::to_string(kind), acc.name, op.moved_bytes, op.inter_rank_bound_bytes));
    }
    return op;
  }

  /// mpisee's communicator table: each communicator's collectives, then its sends and recvs.
  void communicator_rows() {
    std::map<std::pair<std::uint64_t, OpKind>, std::size_t> calls;  // by communicator and kind
    for (const auto& call : trace::collective_calls(trace_)) {
      const trace::Op first = trace_.op(call.front());
      ++calls[{trace::communicator_key(first), first.kind}];
    }
    for (const auto& [key, acc] : comms_) {
      CommRow row;
      row.name = acc.name;
      for (std::uint16_t m : trace_.group(acc.group)) row.members.push_back(trace_.endpoint_name(m));
      for (const auto& [kind, oa] : acc.ops) {
        const auto it = calls.find({key, kind});
        row.ops.push_back(collective_row(acc, kind, oa, row.members, it == calls.end() ? 0 : it->second));
      }
      for (const auto& [kind, records, bytes] : {std::tuple{OpKind::send, acc.send_records, acc.send_bytes},
                                                 std::tuple{OpKind::recv, acc.recv_records, acc.recv_bytes}}) {
        if (!records) continue;
        CommOpRow op;
        op.op = kind;
        op.calls = records;
        op.bytes = op.moved_bytes = bytes;
        row.ops.push_back(op);
      }
      r_.comms.push_back(std::move(row));
    }
  }

  /// Check 1: point-to-point sends match receives per pair (mpisee's sanity check).
  void point_to_point_check() {
    std::uint64_t sends = 0, recvs = 0;
    std::vector<std::string> bad;
    for (std::size_t i = 0; i < n_; ++i) {
      for (std::size_t j = 0; j < n_; ++j) {
        const Cell& s = p2p_sent_[i * n_ + j];
        const Cell& q = p2p_received_[i * n_ + j];
        sends += s.count;
        recvs += q.count;
        if (s.bytes != q.bytes || s.count != q.count) {
          bad.push_back(fmt::format("{} -> {}: sent {} B in {}, received {} B in {}", r_.endpoints[i], r_.endpoints[j],
                                    s.bytes, s.count, q.bytes, q.count));
        }
      }
    }
    constexpr std::string_view kName = "point-to-point: sent == received per pair";
    if (sends == 0 && recvs == 0) {
      r_.checks.push_back({std::string(kName), true, "no send/recv records"});
    } else if (sends == 0 || recvs == 0) {
      r_.checks.push_back(
          {std::string(kName), true, fmt::format("only {} records: nothing to match", sends ? "send" : "recv")});
    } else {
      r_.checks.push_back({std::string(kName), bad.empty(),
                           bad.empty() ? fmt::format("{} sends matched by {} receives", sends, recvs) : join(bad, "; ")});
    }
  }

  /// Checks 2-4: every member recorded every call, volumes reach mpisee's bound, and each
  /// communicator name has one member list.
  void collective_checks() {
    const bool any_collective = r_.ops_by_type[static_cast<std::size_t>(CommType::collective)] > 0;
    if (any_collective) {
      r_.checks.push_back({"collectives: every member recorded every call", incomplete_.empty(),
                           incomplete_.empty() ? "yes"
                           : join(incomplete_, "; ") +
                                 (unrecorded_member_ ? "; a member with no record at all is a rank whose trace was "
                                                       "not given: pass every rank's trace, or the job's folder"
                                                     : "")});
      std::uint64_t bound = 0, moved = 0;
      for (const CommRow& c : r_.comms)
        for (const CommOpRow& o : c.ops)
          if (trace::is_collective(o.op)) {
            bound += o.inter_rank_bound_bytes;
            moved += o.moved_bytes;
          }
      r_.checks.push_back(
          {"collectives: volume >= mpisee lower bound", below_bound_.empty(),
           below_bound_.empty() ? fmt::format("{} bytes moved between ranks >= {} bytes lower bound", moved, bound)
                                : join(below_bound_, "; ") +
                                      (incomplete_.empty() ? ""
                                                           : "; the members that did not record every call (the "
                                                             "check above) moved nothing in those calls")});
    }
    if (!comms_.empty()) {
      r_.checks.push_back({"communicator names agree across ranks", name_conflicts_.empty(),
                           name_conflicts_.empty()
                               ? fmt::format("{} communicators, one member list each", comms_.size())
                               : "names used with different member lists: " + join(name_conflicts_, ", ")});
    }
    if (undecomposed_ > 0) r_.warnings.push_back(fmt::format("{} collective records were not decomposed", undecomposed_));
  }

  const trace::Trace& trace_;
  const Options& options_;
  const topology::Node* node_;
  Report r_;
  std::size_t n_ = 0;  // matrix endpoints
  std::uint16_t host_id_ = trace::kNoEndpoint;  // the trace's `host`, if it has one
  std::vector<std::int32_t> ep_index_;          // per trace endpoint: matrix index
  std::vector<std::int32_t> host_beside_;       // per trace endpoint: where `host` lands beside it
  std::int32_t host_alone_ = -1;                // where `host` lands beside no endpoint
  std::vector<std::uint8_t> is_host_, is_gpu_;  // per trace endpoint, by name
  // Attributions.
  std::unordered_map<std::uint64_t, Cell> objects_, lines_;
  std::vector<Cell> devices_;  // (issuer, type)
  std::uint64_t last_object_key_ = ~std::uint64_t{0}, last_line_key_ = ~std::uint64_t{0};
  Cell* last_object_ = nullptr;
  Cell* last_line_ = nullptr;
  // Point-to-point and collectives.
  bool have_sends_ = false;
  std::vector<Cell> p2p_sent_, p2p_received_;
  std::map<std::uint64_t, CommAcc> comms_;  // by trace::communicator_key
  std::map<std::uint32_t, std::uint32_t> name_group_;  // comm name id -> group id
  std::vector<std::string> name_conflicts_;
  std::map<CollKey, Decomposed> cache_;
  std::map<std::vector<std::uint64_t>, Decomposed> ran_cache_;  // decomposed_as_run's, by the shares
  static constexpr std::uint32_t kNotRan = UINT32_MAX;
  std::vector<std::uint32_t> ran_of_;                   // by trace record: its Options::ran call, or kNotRan
  std::vector<const Decomposed*> ran_decomposed_;       // by Options::ran call, once decomposed
  std::map<std::uint32_t, int> group_channels_;  // node-based default channels per group
  std::size_t undecomposed_ = 0;
  std::vector<std::string> incomplete_, below_bound_;
  bool unrecorded_member_ = false;  // a member of a communicator recorded none of its calls
};

}  // namespace

Report build(const trace::Trace& trace, const Options& options) { return Builder(trace, options).run(); }

}  // namespace linkcast::matrix
