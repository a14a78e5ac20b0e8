// The three renderings of a matrix Report: text tables, JSON, CSV.
#include <fmt/format.h>

#include <array>
#include <nlohmann/json.hpp>
#include <ostream>

#include "core/json.hpp"
#include "core/strings.hpp"
#include "core/table.hpp"
#include "core/units.hpp"
#include "matrix/matrix.hpp"

namespace linkcast::matrix {

namespace {

using Align = TextTable::Align;

std::string cell_text(std::uint64_t v, Metric metric) {
  if (v == 0) return "0";
  return metric == Metric::bytes ? format_bytes_binary(v) : fmt::format("{}", v);
}

std::string percent(std::uint64_t part, std::uint64_t whole) {
  if (whole == 0) return "-";
  return fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

void render_matrix(const Report& r, const Matrix& m, Metric metric, std::ostream& out) {
  std::vector<std::string> header = {metric == Metric::bytes ? "bytes" : "count"};
  std::vector<Align> align = {Align::left};
  for (const std::string& e : r.endpoints) {
    header.push_back(e);
    align.push_back(Align::right);
  }
  header.push_back("sent");
  align.push_back(Align::right);
  TextTable t(header, align);
  std::vector<std::uint64_t> received(m.n, 0);
  std::uint64_t all = 0;
  for (std::size_t i = 0; i < m.n; ++i) {
    std::vector<std::string> row = {r.endpoints[i]};
    std::uint64_t sent = 0;
    for (std::size_t j = 0; j < m.n; ++j) {
      const std::uint64_t v = metric == Metric::bytes ? m.bytes_at(i, j) : m.count_at(i, j);
      row.push_back(cell_text(v, metric));
      sent += v;
      received[j] += v;
    }
    all += sent;
    row.push_back(cell_text(sent, metric));
    t.add_row(std::move(row));
  }
  t.add_rule();
  std::vector<std::string> last = {"received"};
  for (std::uint64_t v : received) last.push_back(cell_text(v, metric));
  last.push_back(cell_text(all, metric));
  t.add_row(std::move(last));
  out << t.render();
}

std::string title(const Report& r) {
  std::string coll;
  if (r.ops_by_type[static_cast<std::size_t>(CommType::collective)] > 0) {
    coll = fmt::format("; collectives decomposed as NCCL {} with {} channels", nccl::to_string(r.collectives.algo),
                       r.collectives.channels > 0 ? fmt::format("{}", r.collectives.channels)
                       : r.node_channels          ? std::string("the node's")
                                                  : fmt::format("{} (default)", nccl::kDefaultChannels));
  }
  return fmt::format("Communication of '{}' ({}, {} operations{}{})\n", r.source, r.format, r.ops,
                     r.ignored_ops ? fmt::format(", {} memsets ignored", r.ignored_ops) : std::string(), coll);
}

void render_checks(const Report& r, std::ostream& out) {
  out << "\nChecks:\n";
  for (const Check& c : r.checks) out << fmt::format("  {:<4}  {}: {}\n", c.ok ? "ok" : "FAIL", c.name, c.detail);
  for (const std::string& w : r.warnings) out << fmt::format("  note  {}\n", w);
}

void render_type_view(const Report& r, Metric metric, std::ostream& out) {
  out << fmt::format("Rows send, columns receive; {}.\n\n", metric == Metric::bytes ? "bytes" : "transfers");
  auto transfers = [](std::uint64_t n) { return fmt::format("{} transfer{}", n, n == 1 ? "" : "s"); };
  out << fmt::format("All types: {} in {}\n", format_bytes_binary(r.total.total_bytes()), transfers(r.total.total_count()));
  render_matrix(r, r.total, metric, out);
  for (std::size_t t = 0; t < kCommTypeCount; ++t) {
    const Matrix& m = r.by_type[t];
    if (m.total_count() == 0) continue;
    const auto type = static_cast<CommType>(t);
    out << fmt::format("\n{}: {} in {} ({} trace record{}) - {}\n", to_string(type), format_bytes_binary(m.total_bytes()),
                       transfers(m.total_count()), r.ops_by_type[t], r.ops_by_type[t] == 1 ? "" : "s", describe(type));
    render_matrix(r, m, metric, out);
  }
}

void render_attribution(const Report& r, const std::vector<AttributionRow>& rows, bool objects, std::ostream& out) {
  const std::uint64_t total = r.total.total_bytes();
  std::vector<std::string> header = {objects ? "object" : "line"};
  std::vector<Align> align = {Align::left};
  if (objects) {
    header.push_back("memory on");
    align.push_back(Align::left);
  }
  for (const char* h : {"issued by", "type"}) {
    header.push_back(h);
    align.push_back(Align::left);
  }
  for (const char* h : {"bytes", "transfers", "share"}) {
    header.push_back(h);
    align.push_back(Align::right);
  }
  TextTable t(header, align);
  for (const AttributionRow& a : rows) {
    std::vector<std::string> row = {a.key};
    if (objects) row.push_back(a.owner);
    row.push_back(a.issuer);
    row.push_back(std::string(to_string(a.type)));
    row.push_back(format_bytes_binary(a.bytes));
    row.push_back(fmt::format("{}", a.count));
    row.push_back(percent(a.bytes, total));
    t.add_row(std::move(row));
  }
  out << (objects ? "Data objects (allocation name and call site), where their memory is, and who moved them:\n"
                  : "Source lines and the devices that issued their transfers:\n");
  out << t.render();
}

void render_device_view(const Report& r, std::ostream& out) {
  out << "Issued transfers per device (copies are issued through the host API):\n";
  TextTable t({"issued by", "type", "bytes", "transfers", "share"},
              {Align::left, Align::left, Align::right, Align::right, Align::right});
  const std::uint64_t total = r.total.total_bytes();
  for (const DeviceRow& d : r.devices)
    t.add_row({d.device, std::string(to_string(d.type)), format_bytes_binary(d.bytes), fmt::format("{}", d.count),
               percent(d.bytes, total)});
  out << t.render();
  out << "\nSent and received per endpoint (all types):\n";
  TextTable s({"endpoint", "sent", "received"}, {Align::left, Align::right, Align::right});
  for (std::size_t i = 0; i < r.endpoints.size(); ++i)
    s.add_row({r.endpoints[i], format_bytes_binary(r.total.sent_bytes(i)), format_bytes_binary(r.total.received_bytes(i))});
  out << s.render();
}

void render_comm_view(const Report& r, std::ostream& out) {
  out << "Communicators (mpisee): per operation, calls, bytes as nccl-tests counts them, mpisee's lower-bound "
         "volume, and the volume NCCL's algorithm moves between ranks:\n";
  TextTable t({"communicator", "size", "members", "operation", "calls", "bytes", "lower bound", "moved", "check"},
              {Align::left, Align::right, Align::left, Align::left, Align::right, Align::right, Align::right,
               Align::right, Align::left});
  for (const CommRow& c : r.comms) {
    for (const CommOpRow& o : c.ops) {
      const bool coll = trace::is_collective(o.op);
      std::string check = "-";
      if (coll) {
        check = o.moved_bytes >= o.inter_rank_bound_bytes ? "ok" : "BELOW BOUND";
        if (!o.complete) check += ", incomplete";
      }
      t.add_row({c.name, fmt::format("{}", c.members.size()), join(c.members, ";"),
                 std::string(trace::to_string(o.op)), fmt::format("{}", o.calls), format_bytes_binary(o.bytes),
                 coll ? format_bytes_binary(o.lower_bound_bytes) : "-", format_bytes_binary(o.moved_bytes), check});
    }
  }
  if (r.comms.empty()) {
    out << "(no collective or send/recv records)\n";
    return;
  }
  out << t.render();
  out << "Lower bounds (mpisee, m = per-rank buffer): bcast (p-1)m, reduce/allreduce pm, allgather and "
         "reducescatter pm with m = bytes/p, alltoall p*p*m with m = bytes/p. The check compares what NCCL moves "
         "between ranks with the part of the bound that must leave a GPU (reduce (p-1)m, alltoall p(p-1)m).\n";
}

nlohmann::ordered_json matrix_json(const Matrix& m, bool bytes) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < m.n; ++i) {
    nlohmann::ordered_json row = nlohmann::ordered_json::array();
    for (std::size_t j = 0; j < m.n; ++j) row.push_back(bytes ? m.bytes_at(i, j) : m.count_at(i, j));
    rows.push_back(std::move(row));
  }
  return rows;
}

nlohmann::ordered_json row_json(const AttributionRow& a, bool objects) {
  nlohmann::ordered_json j = {{objects ? "object" : "line", a.key}};
  if (objects) j["memory_on"] = a.owner;
  j["issuer"] = a.issuer;
  j["type"] = to_string(a.type);
  j["bytes"] = a.bytes;
  j["count"] = a.count;
  return j;
}

bool numbers_only(const nlohmann::ordered_json& a) {
  for (const auto& v : a)
    if (!v.is_number()) return false;
  return true;
}

/// Pretty JSON whose arrays of numbers stay on one line, so a matrix reads as rows.
void print_json(const nlohmann::ordered_json& j, int indent, std::ostream& out) {
  const std::string pad(static_cast<std::size_t>(indent + 1), ' ');
  const std::string close(static_cast<std::size_t>(indent), ' ');
  if (j.is_object()) {
    if (j.empty()) {
      out << "{}";
      return;
    }
    out << "{\n";
    std::size_t i = 0;
    for (auto it = j.begin(); it != j.end(); ++it, ++i) {
      out << pad << json_string(it.key()) << ": ";
      print_json(it.value(), indent + 1, out);
      out << (i + 1 < j.size() ? ",\n" : "\n");
    }
    out << close << "}";
  } else if (j.is_array()) {
    if (j.empty() || numbers_only(j)) {
      out << dump_json(j, -1, "matrix JSON");
      return;
    }
    out << "[\n";
    for (std::size_t i = 0; i < j.size(); ++i) {
      out << pad;
      print_json(j[i], indent + 1, out);
      out << (i + 1 < j.size() ? ",\n" : "\n");
    }
    out << close << "]";
  } else {
    out << dump_json(j, -1, "matrix JSON");
  }
}

/// An attribution view's rows as print_json prints an array of them at `indent`, one row built at
/// a time: a trace of a million objects or lines held them all as JSON values before (2.7 GB for
/// its 245 MB of JSON).
void print_rows(const std::vector<AttributionRow>& rows, bool objects, int indent, std::ostream& out) {
  if (rows.empty()) {
    out << "[]";
    return;
  }
  const std::string pad(static_cast<std::size_t>(indent + 1), ' ');
  out << "[\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out << pad;
    print_json(row_json(rows[i], objects), indent + 1, out);
    out << (i + 1 < rows.size() ? ",\n" : "\n");
  }
  out << std::string(static_cast<std::size_t>(indent), ' ') << "]";
}

}  // namespace

void render_table(const Report& r, View view, Metric metric, std::ostream& out) {
  out << title(r);
  switch (view) {
    case View::type: render_type_view(r, metric, out); break;
    case View::object: render_attribution(r, r.objects, true, out); break;
    case View::line: render_attribution(r, r.lines, false, out); break;
    case View::device: render_device_view(r, out); break;
    case View::comm: render_comm_view(r, out); break;
  }
  render_checks(r, out);
}

void render_json(const Report& r, std::ostream& out) {
  using json = nlohmann::ordered_json;
  json j;
  j["endpoints"] = r.endpoints;
  j["bytes"] = matrix_json(r.total, true);
  j["count"] = matrix_json(r.total, false);
  json types = json::object();
  for (std::size_t t = 0; t < kCommTypeCount; ++t) {
    const Matrix& m = r.by_type[t];
    types[std::string(to_string(static_cast<CommType>(t)))] = {
        {"description", describe(static_cast<CommType>(t))},
        {"records", r.ops_by_type[t]},
        {"total_bytes", m.total_bytes()},
        {"total_count", m.total_count()},
        {"bytes", matrix_json(m, true)},
        {"count", matrix_json(m, false)}};
  }
  j["types"] = std::move(types);
  j["objects"] = nullptr;  // streamed by print_rows where the top level is printed
  j["lines"] = nullptr;
  json devices = json::array();
  for (const DeviceRow& d : r.devices)
    devices.push_back({{"device", d.device}, {"type", to_string(d.type)}, {"bytes", d.bytes}, {"count", d.count}});
  j["devices"] = std::move(devices);
  json comms = json::array();
  for (const CommRow& c : r.comms) {
    json ops = json::array();
    for (const CommOpRow& o : c.ops) {
      json op = {{"op", trace::to_string(o.op)}, {"calls", o.calls}, {"bytes", o.bytes},
                 {"moved_bytes", o.moved_bytes}};
      if (trace::is_collective(o.op)) {
        op["lower_bound_bytes"] = o.lower_bound_bytes;
        op["inter_rank_lower_bound_bytes"] = o.inter_rank_bound_bytes;
        op["complete"] = o.complete;
      }
      ops.push_back(std::move(op));
    }
    comms.push_back({{"name", c.name}, {"size", c.members.size()}, {"members", c.members}, {"ops", std::move(ops)}});
  }
  j["communicators"] = std::move(comms);
  json checks = json::array();
  for (const Check& c : r.checks) checks.push_back({{"name", c.name}, {"ok", c.ok}, {"detail", c.detail}});
  j["checks"] = std::move(checks);
  j["source"] = r.source;
  j["format"] = r.format;
  j["ops"] = r.ops;
  j["ignored_ops"] = r.ignored_ops;
  j["collectives"] = {{"algo", nccl::to_string(r.collectives.algo)},
                      {"channels", r.collectives.channels > 0 ? json(r.collectives.channels)
                                   : r.node_channels          ? json("node")
                                                              : json(nccl::kDefaultChannels)},
                      {"chunk_bytes", r.collectives.chunk_bytes}};
  j["warnings"] = r.warnings;
  // The top level as print_json prints it, with the attribution rows streamed.
  out << "{\n";
  std::size_t i = 0;
  for (auto it = j.begin(); it != j.end(); ++it, ++i) {
    out << ' ' << json_string(it.key()) << ": ";
    if (it.key() == "objects" || it.key() == "lines")
      print_rows(it.key() == "objects" ? r.objects : r.lines, it.key() == "objects", 1, out);
    else
      print_json(it.value(), 1, out);
    out << (i + 1 < j.size() ? ",\n" : "\n");
  }
  out << "}\n";
}

void render_csv(const Report& r, View view, std::ostream& out) {
  switch (view) {
    case View::type: {
      out << "type,src,dst,bytes,count\n";
      auto dump = [&](std::string_view type, const Matrix& m) {
        for (std::size_t i = 0; i < m.n; ++i)
          for (std::size_t j = 0; j < m.n; ++j)
            if (m.count_at(i, j) || m.bytes_at(i, j))
              out << fmt::format("{},{},{},{},{}\n", type, csv_field(r.endpoints[i]), csv_field(r.endpoints[j]),
                                 m.bytes_at(i, j), m.count_at(i, j));
      };
      dump("all", r.total);
      for (std::size_t t = 0; t < kCommTypeCount; ++t) dump(to_string(static_cast<CommType>(t)), r.by_type[t]);
      break;
    }
    case View::object:
    case View::line: {
      const bool objects = view == View::object;
      out << (objects ? "object,memory_on,issuer,type,bytes,count\n" : "line,issuer,type,bytes,count\n");
      for (const AttributionRow& a : objects ? r.objects : r.lines) {
        out << csv_field(a.key) << ',';
        if (objects) out << csv_field(a.owner) << ',';
        out << fmt::format("{},{},{},{}\n", csv_field(a.issuer), to_string(a.type), a.bytes, a.count);
      }
      break;
    }
    case View::device:
      out << "device,type,bytes,count\n";
      for (const DeviceRow& d : r.devices)
        out << fmt::format("{},{},{},{}\n", csv_field(d.device), to_string(d.type), d.bytes, d.count);
      break;
    case View::comm:
      out << "communicator,size,members,op,calls,bytes,lower_bound_bytes,inter_rank_lower_bound_bytes,moved_bytes,"
             "complete\n";
      for (const CommRow& c : r.comms)
        for (const CommOpRow& o : c.ops)
          out << fmt::format("{},{},{},{},{},{},{},{},{},{}\n", csv_field(c.name), c.members.size(),
                             csv_field(join(c.members, ";")), trace::to_string(o.op), o.calls, o.bytes,
                             o.lower_bound_bytes, o.inter_rank_bound_bytes, o.moved_bytes, o.complete ? 1 : 0);
      break;
  }
}

}  // namespace linkcast::matrix
