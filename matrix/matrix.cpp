#include "matrix/matrix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <unordered_map>

#include "core/error.hpp"
#include "core/strings.hpp"
#include "core/units.hpp"
#include "topology/node.hpp"

namespace linkcast::matrix {

using trace::OpKind;

namespace {

constexpr std::array<std::string_view, kCommTypeCount> kTypeNames = {
    "copy", "copy-via-host", "zero-copy", "peer-access", "unified-memory", "collective", "send-recv"};

constexpr std::array<std::string_view, kCommTypeCount> kTypeDescriptions = {
    "explicit copies: host-device (ComScribe case 4), within a GPU, and between GPUs with peer access (1.1, 1.2)",
    "peer copies without peer access, staged through the host: both legs (ComScribe case 1.3)",
    "device-initiated access to mapped pinned host memory (ComScribe case 5)",
    "device-initiated loads and stores to another GPU's memory (ComScribe case 2, Snoopie)",
    "unified-memory page migrations (ComScribe cases 3 and 6)",
    "NCCL collectives, decomposed into the peer transfers NCCL makes",
    "point-to-point sends (NCCL send/recv)"};

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

Report build(const trace::Trace& trace, const Options& options) {
  Report r;
  r.source = trace.source_file;
  r.format = trace.format;
  r.ops = trace.size();
  r.collectives = options.collectives;
  r.node_channels = options.collectives.channels == 0 && options.node != nullptr;
  const topology::Node* node = options.node;

  // --- endpoints -------------------------------------------------------------------------
  const std::uint16_t host_id = [&] {
    for (std::size_t i = 0; i < trace.endpoint_count(); ++i)
      if (trace.endpoint_name(static_cast<std::uint16_t>(i)) == "host") return static_cast<std::uint16_t>(i);
    return trace::kNoEndpoint;
  }();
  std::vector<std::string> names;
  for (std::size_t i = 0; i < trace.endpoint_count(); ++i) {
    const std::string& name = trace.endpoint_name(static_cast<std::uint16_t>(i));
    if (node && name == "host") continue;  // resolved to each GPU's own socket below
    names.push_back(name);
  }
  if (node) {
    for (const auto& e : node->endpoints) {
      if (e.kind != topology::EndpointKind::cpu && e.kind != topology::EndpointKind::gpu) continue;
      if (std::find(names.begin(), names.end(), e.id) == names.end()) names.push_back(e.id);
    }
    for (std::size_t i = 0; i < trace.endpoint_count(); ++i) {
      const std::string& name = trace.endpoint_name(static_cast<std::uint16_t>(i));
      if (name != "host" && node->find(name) < 0) {
        r.warnings.push_back(fmt::format("endpoint '{}' of the trace is not on node '{}' ({})", name, node->name,
                                         node->file));
      }
    }
  }
  // ComScribe's matrices always have the host first, even when nothing touched it.
  if (std::none_of(names.begin(), names.end(), [](const std::string& s) { return trace::is_host_name(s); }))
    names.push_back("host");
  std::vector<EndpointOrder> order;
  for (const std::string& n : names) order.push_back(order_of(n));
  std::sort(order.begin(), order.end());
  for (const EndpointOrder& o : order) {
    r.endpoints.push_back(o.name);
    if (o.cls == 0) ++r.host_count;
  }
  const std::size_t n = r.endpoints.size();
  if (n > 4000) throw InputError(fmt::format("matrix: {} endpoints; at most 4000 fit a matrix", n));
  auto index_of = [&](const std::string& name) -> std::int32_t {
    for (std::size_t i = 0; i < n; ++i)
      if (r.endpoints[i] == name) return static_cast<std::int32_t>(i);
    return -1;
  };
  std::vector<std::int32_t> ep_index(trace.endpoint_count(), -1);
  std::vector<std::int32_t> socket_of(trace.endpoint_count(), -1);  // node: a GPU's host cpu
  std::int32_t first_cpu = -1;
  for (std::size_t i = 0; i < trace.endpoint_count(); ++i) {
    const std::string& name = trace.endpoint_name(static_cast<std::uint16_t>(i));
    ep_index[i] = index_of(name);
    if (node) {
      const int e = node->find(name);
      if (e >= 0 && node->endpoints[static_cast<std::size_t>(e)].kind == topology::EndpointKind::gpu) {
        const int h = node->endpoints[static_cast<std::size_t>(e)].host;
        if (h >= 0) socket_of[i] = index_of(node->endpoints[static_cast<std::size_t>(h)].id);
      }
    }
  }
  if (node)
    for (std::size_t i = 0; i < n && first_cpu < 0; ++i)
      if (order_of(r.endpoints[i]).cls == 0) first_cpu = static_cast<std::int32_t>(i);
  std::vector<std::uint8_t> is_host(trace.endpoint_count(), 0), is_gpu(trace.endpoint_count(), 0);
  for (std::size_t i = 0; i < trace.endpoint_count(); ++i) {
    const std::string& name = trace.endpoint_name(static_cast<std::uint16_t>(i));
    is_host[i] = trace::is_host_name(name) ? 1 : 0;
    is_gpu[i] = trace::endpoint_index(name, "gpu") >= 0 ? 1 : 0;
  }
  // Matrix index of endpoint `ep` of an op whose other end is `other`: "host" on a node becomes
  // the other end's socket (or the node's first CPU).
  auto place = [&](std::uint16_t ep, std::uint16_t other) -> std::size_t {
    if (ep == host_id && node) {
      if (other != trace::kNoEndpoint && socket_of[other] >= 0) return static_cast<std::size_t>(socket_of[other]);
      return static_cast<std::size_t>(first_cpu);
    }
    return static_cast<std::size_t>(ep_index[ep]);
  };

  r.total.resize(n);
  for (Matrix& m : r.by_type) m.resize(n);

  // --- attribution accumulators ------------------------------------------------------------
  // Keys pack (id, owner, issuer, type) into 64 bits; issuer n means "(host API)".
  const std::size_t host_api = n;
  std::unordered_map<std::uint64_t, Cell> objects, lines;
  std::vector<Cell> devices((n + 1) * kCommTypeCount);
  std::uint64_t last_object_key = ~std::uint64_t{0}, last_line_key = ~std::uint64_t{0};
  Cell* last_object = nullptr;
  Cell* last_line = nullptr;
  auto attribute = [&](std::uint32_t object, std::uint32_t line, std::size_t owner, std::size_t issuer, CommType type,
                       std::uint64_t bytes, std::uint64_t count) {
    const auto t = static_cast<std::uint64_t>(type);
    const std::uint64_t ok = (std::uint64_t{object} << 32) | (std::uint64_t{owner} << 20) |
                             (std::uint64_t{issuer} << 8) | t;
    if (ok != last_object_key) {
      last_object = &objects[ok];
      last_object_key = ok;
    }
    last_object->bytes += bytes;
    last_object->count += count;
    const std::uint64_t lk = (std::uint64_t{line} << 32) | (std::uint64_t{issuer} << 8) | t;
    if (lk != last_line_key) {
      last_line = &lines[lk];
      last_line_key = lk;
    }
    last_line->bytes += bytes;
    last_line->count += count;
    Cell& d = devices[issuer * kCommTypeCount + static_cast<std::size_t>(type)];
    d.bytes += bytes;
    d.count += count;
  };

  // --- point-to-point and collective accumulators --------------------------------------------
  bool have_sends = false;
  for (OpKind k : trace.kinds())
    if (k == OpKind::send) {
      have_sends = true;
      break;
    }
  std::vector<Cell> p2p_sent(n * n), p2p_received(n * n);
  std::map<std::uint64_t, CommAcc> comms;  // key: comm id << 32 | group id
  std::map<std::uint32_t, std::uint32_t> name_group;  // comm name id -> group id
  std::vector<std::string> name_conflicts;
  std::map<CollKey, Decomposed> cache;
  std::map<std::uint32_t, int> group_channels;  // node-based default channels per group
  std::size_t undecomposed = 0;

  auto comm_acc = [&](const trace::Op& op) -> CommAcc& {
    // One row per (name, member list): a name reused for other members is reported, not merged.
    const std::uint64_t key = (std::uint64_t{op.comm} << 32) | op.group;
    auto [it, fresh] = comms.try_emplace(key);
    if (fresh) {
      it->second.group = op.group;
      if (op.comm) {
        it->second.name = trace.comms[op.comm];
      } else {
        std::vector<std::string> members;
        for (std::uint16_t m : trace.group(op.group)) members.push_back(trace.endpoint_name(m));
        it->second.name = members.empty() ? "(no communicator)" : "(unnamed: " + join(members, ";") + ")";
      }
    }
    if (op.comm && op.group) {
      const auto [g, first] = name_group.try_emplace(op.comm, op.group);
      if (!first && g->second != op.group &&
          std::find(name_conflicts.begin(), name_conflicts.end(), trace.comms[op.comm]) == name_conflicts.end()) {
        name_conflicts.push_back(trace.comms[op.comm]);
      }
    }
    return it->second;
  };

  auto decomposed = [&](const trace::Op& op, std::size_t size, std::size_t record) -> const Decomposed& {
    // Channels: as given; else, on a node, what NCCL would find for these GPUs; else the default.
    int channels = options.collectives.channels;
    if (channels == 0 && node) {
      auto [g, fresh_group] = group_channels.try_emplace(op.group, 0);
      if (fresh_group) {
        std::vector<int> gpus;
        for (std::uint16_t m : trace.group(op.group)) {
          const int e = node->find(trace.endpoint_name(m));
          if (e >= 0) gpus.push_back(e);
        }
        g->second = gpus.size() == trace.group(op.group).size() ? nccl::default_channels(*node, gpus) : 0;
      }
      channels = g->second;
    }
    const CollKey key{op.kind, size, op.bytes, std::max<int>(op.root, 0), channels};
    auto [it, fresh] = cache.try_emplace(key);
    if (!fresh) return it->second;
    Decomposed& d = it->second;
    nccl::CollectiveSpec spec = options.collectives.spec(op.kind, static_cast<int>(size), op.bytes, key.root);
    spec.channels = channels;
    // A tree is only NCCL's for allreduce, broadcast and reduce: the others run rings.
    if (spec.algo == nccl::CollAlgo::tree && nccl::per_rank_block(op.kind)) spec.algo = nccl::CollAlgo::ring;
    // A recorded size need not be a whole number of the assumed datatype's elements.
    const std::uint64_t unit = std::uint64_t{spec.elem_bytes} * (nccl::per_rank_block(op.kind) ? size : 1);
    if (op.bytes % unit != 0) spec.elem_bytes = 1;
    nccl::Decomposition dec;
    try {
      dec = nccl::decompose(spec);
    } catch (const InputError& e) {
      r.warnings.push_back(fmt::format("{}: cannot decompose this {} of {} bytes over {} ranks ({}); its traffic "
                                       "is left out of the matrices",
                                       trace.describe_record(record), trace::to_string(op.kind), op.bytes, size,
                                       e.what()));
      return d;
    }
    d.ok = true;
    d.bytes = dec.pair_bytes();
    d.row_inter_bytes = dec.sent_bytes();
    d.count.assign(size * size, 0);
    for (const nccl::CollStep& s : dec.steps) {
      d.count[s.src * size + s.dst] += 1;
    }
    return d;
  };

  // --- the scan ----------------------------------------------------------------------------
  const std::size_t count = trace.size();
  for (std::size_t i = 0; i < count; ++i) {
    const trace::Op op = trace.op(i);
    CommType type;
    switch (op.kind) {
      case OpKind::memset: ++r.ignored_ops; continue;
      case OpKind::copy: {
        type = CommType::copy;
        if (i + 1 < count && is_gpu[op.src] && is_host[op.dst]) {
          const trace::Op next = trace.op(i + 1);
          if (next.kind == OpKind::copy && next.src == op.dst && is_gpu[next.dst] && next.dst != op.src &&
              next.bytes == op.bytes && next.stream == op.stream && next.line == op.line) {
            // A peer copy staged through the host: both legs.
            const std::size_t a = place(op.src, op.dst), h1 = place(op.dst, op.src);
            const std::size_t h2 = place(next.src, next.dst), b = place(next.dst, next.src);
            for (const auto& [s, d, o] : {std::tuple{a, h1, op}, std::tuple{h2, b, next}}) {
              r.total.add(s, d, o.bytes, 1);
              r.by_type[static_cast<std::size_t>(CommType::copy_via_host)].add(s, d, o.bytes, 1);
              attribute(o.object, o.line, is_host[o.src] ? d : s, host_api, CommType::copy_via_host, o.bytes, 1);
            }
            r.ops_by_type[static_cast<std::size_t>(CommType::copy_via_host)] += 2;
            ++i;
            continue;
          }
        }
        break;
      }
      case OpKind::access:
        type = (is_host[op.src] || is_host[op.dst]) ? CommType::zero_copy : CommType::peer_access;
        break;
      case OpKind::migrate: type = CommType::unified_memory; break;
      case OpKind::send:
      case OpKind::recv: {
        const std::size_t s = place(op.src, op.dst), d = place(op.dst, op.src);
        Cell& c = (op.kind == OpKind::send ? p2p_sent : p2p_received)[s * n + d];
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
        if ((op.kind == OpKind::send) != have_sends) continue;  // the matrix counts one side only
        type = CommType::send_recv;
        break;
      }
      default: {  // collectives
        const auto& members = trace.group(op.group);
        const auto pos = std::find(members.begin(), members.end(), op.src);
        if (pos == members.end()) {
          std::vector<std::string> m;
          for (std::uint16_t e : members) m.push_back(trace.endpoint_name(e));
          throw InputError(fmt::format("{}: a {} recorded on {} whose group ({}) does not include it; a collective is "
                                       "recorded once per member, with src = dst = that member",
                                       trace.describe_record(i), trace::to_string(op.kind),
                                       trace.endpoint_name(op.src), m.empty() ? "empty" : join(m, ";")));
        }
        const auto rank = static_cast<std::size_t>(pos - members.begin());
        const std::size_t size = members.size();
        CommAcc& acc = comm_acc(op);
        OpAcc& oa = acc.ops[op.kind];
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
        ++r.ops_by_type[static_cast<std::size_t>(CommType::collective)];
        const Decomposed& d = decomposed(op, size, i);
        if (!d.ok) {
          ++undecomposed;
          continue;
        }
        oa.moved += d.row_inter_bytes[rank];
        const std::size_t s = place(op.src, op.src);
        std::uint64_t row_bytes = 0, row_count = 0;
        Matrix& m = r.by_type[static_cast<std::size_t>(CommType::collective)];
        for (std::size_t j = 0; j < size; ++j) {
          const std::uint64_t c = d.count[rank * size + j];
          if (c == 0) continue;
          const std::uint64_t b = d.bytes[rank * size + j];
          const std::size_t t = place(members[j], members[j]);
          m.add(s, t, b, c);
          r.total.add(s, t, b, c);
          row_bytes += b;
          row_count += c;
        }
        attribute(op.object, op.line, s, s, CommType::collective, row_bytes, row_count);
        continue;
      }
    }
    const std::size_t s = place(op.src, op.dst), d = place(op.dst, op.src);
    r.total.add(s, d, op.bytes, 1);
    r.by_type[static_cast<std::size_t>(type)].add(s, d, op.bytes, 1);
    ++r.ops_by_type[static_cast<std::size_t>(type)];
    std::size_t owner = s, issuer = host_api;
    switch (op.kind) {
      case OpKind::access: {
        const bool store = op.issuer == op.src;
        issuer = store ? s : d;
        owner = store ? d : s;
        break;
      }
      case OpKind::copy: owner = is_host[op.src] ? d : s; break;
      case OpKind::migrate: issuer = d; break;  // the faulting processor pulls the page
      default: issuer = s; break;               // send/recv: the sender
    }
    attribute(op.object, op.line, owner, issuer, type, op.bytes, 1);
  }

  // --- attribution rows ----------------------------------------------------------------------
  auto issuer_name = [&](std::size_t i) { return i == host_api ? std::string("(host API)") : r.endpoints[i]; };
  for (const auto& [key, cell] : objects) {
    AttributionRow row;
    const auto object = static_cast<std::uint32_t>(key >> 32);
    row.key = object ? trace.objects[object] : "(unknown)";
    row.owner = r.endpoints[(key >> 20) & 0xFFF];
    row.issuer = issuer_name((key >> 8) & 0xFFF);
    row.type = static_cast<CommType>(key & 0xFF);
    row.bytes = cell.bytes;
    row.count = cell.count;
    r.objects.push_back(std::move(row));
  }
  for (const auto& [key, cell] : lines) {
    AttributionRow row;
    const auto line = static_cast<std::uint32_t>(key >> 32);
    row.key = line ? trace.lines[line] : "(unknown)";
    row.issuer = issuer_name((key >> 8) & 0xFFF);
    row.type = static_cast<CommType>(key & 0xFF);
    row.bytes = cell.bytes;
    row.count = cell.count;
    r.lines.push_back(std::move(row));
  }
  auto by_bytes = [](const AttributionRow& a, const AttributionRow& b) {
    if (a.bytes != b.bytes) return a.bytes > b.bytes;
    return std::tie(a.key, a.owner, a.issuer, a.type) < std::tie(b.key, b.owner, b.issuer, b.type);
  };
  std::sort(r.objects.begin(), r.objects.end(), by_bytes);
  std::sort(r.lines.begin(), r.lines.end(), by_bytes);
  for (std::size_t i = 0; i <= n; ++i) {
    for (std::size_t t = 0; t < kCommTypeCount; ++t) {
      const Cell& c = devices[i * kCommTypeCount + t];
      if (c.count == 0 && c.bytes == 0) continue;
      r.devices.push_back({issuer_name(i), static_cast<CommType>(t), c.bytes, c.count});
    }
  }

  // --- communicators and checks --------------------------------------------------------------
  std::vector<std::string> incomplete, below_bound;
  for (auto& [key, acc] : comms) {
    CommRow row;
    row.name = acc.name;
    for (std::uint16_t m : trace.group(acc.group)) row.members.push_back(trace.endpoint_name(m));
    for (auto& [kind, oa] : acc.ops) {
      CommOpRow op;
      op.op = kind;
      op.calls = *std::max_element(oa.records.begin(), oa.records.end());
      const auto calls_min = *std::min_element(oa.records.begin(), oa.records.end());
      op.complete = calls_min == op.calls;
      // Each member records every call, so one member's sums are the call totals; the most
      // complete member's are used.
      const std::size_t best = static_cast<std::size_t>(
          std::max_element(oa.records.begin(), oa.records.end()) - oa.records.begin());
      op.bytes = oa.bytes[best];
      op.lower_bound_bytes = oa.lower[best];
      op.inter_rank_bound_bytes = oa.inter_lower[best];
      op.moved_bytes = oa.moved;
      if (!op.complete) {
        for (std::size_t k = 0; k < oa.records.size(); ++k) {
          if (oa.records[k] != op.calls) {
            incomplete.push_back(fmt::format("{} on '{}': {} recorded {} of {} calls", trace::to_string(kind),
                                             acc.name, row.members[k], oa.records[k], op.calls));
          }
        }
      }
      if (op.moved_bytes < op.inter_rank_bound_bytes) {
        below_bound.push_back(fmt::format("{} on '{}': {} bytes moved between ranks < lower bound {}",
                                          trace::to_string(kind), acc.name, op.moved_bytes,
                                          op.inter_rank_bound_bytes));
      }
      row.ops.push_back(op);
    }
    if (acc.send_records) {
      CommOpRow op;
      op.op = OpKind::send;
      op.calls = acc.send_records;
      op.bytes = op.moved_bytes = acc.send_bytes;
      row.ops.push_back(op);
    }
    if (acc.recv_records) {
      CommOpRow op;
      op.op = OpKind::recv;
      op.calls = acc.recv_records;
      op.bytes = op.moved_bytes = acc.recv_bytes;
      row.ops.push_back(op);
    }
    r.comms.push_back(std::move(row));
  }

  // Check 1: point-to-point sends match receives per pair (mpisee's sanity check).
  {
    std::uint64_t sends = 0, recvs = 0;
    std::vector<std::string> bad;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        const Cell& s = p2p_sent[i * n + j];
        const Cell& q = p2p_received[i * n + j];
        sends += s.count;
        recvs += q.count;
        if (s.bytes != q.bytes || s.count != q.count) {
          bad.push_back(fmt::format("{} -> {}: sent {} B in {}, received {} B in {}", r.endpoints[i], r.endpoints[j],
                                    s.bytes, s.count, q.bytes, q.count));
        }
      }
    }
    if (sends == 0 && recvs == 0) {
      r.checks.push_back({"point-to-point: sent == received per pair", true, "no send/recv records"});
    } else if (sends == 0 || recvs == 0) {
      r.checks.push_back({"point-to-point: sent == received per pair", true,
                          fmt::format("only {} records: nothing to match", sends ? "send" : "recv")});
    } else {
      r.checks.push_back({"point-to-point: sent == received per pair", bad.empty(),
                          bad.empty() ? fmt::format("{} sends matched by {} receives", sends, recvs) : join(bad, "; ")});
    }
  }
  // Checks 2-4: collectives.
  const bool any_collective = r.ops_by_type[static_cast<std::size_t>(CommType::collective)] > 0;
  if (any_collective) {
    r.checks.push_back({"collectives: every member recorded every call", incomplete.empty(),
                        incomplete.empty() ? "yes" : join(incomplete, "; ")});
    std::uint64_t bound = 0, moved = 0;
    for (const CommRow& c : r.comms)
      for (const CommOpRow& o : c.ops)
        if (trace::is_collective(o.op)) {
          bound += o.inter_rank_bound_bytes;
          moved += o.moved_bytes;
        }
    r.checks.push_back({"collectives: volume >= mpisee lower bound", below_bound.empty(),
                        below_bound.empty()
                            ? fmt::format("{} bytes moved between ranks >= {} bytes lower bound", moved, bound)
                            : join(below_bound, "; ")});
  }
  if (!comms.empty()) {
    r.checks.push_back({"communicator names agree across ranks", name_conflicts.empty(),
                        name_conflicts.empty()
                            ? fmt::format("{} communicators, one member list each", comms.size())
                            : "names used with different member lists: " + join(name_conflicts, ", ")});
  }
  if (undecomposed > 0) {
    r.warnings.push_back(fmt::format("{} collective records were not decomposed", undecomposed));
  }
  return r;
}

}  // namespace linkcast::matrix
