#include "trace/csv.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bitset>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>

#include "core/error.hpp"
#include "core/input_file.hpp"
#include "core/strings.hpp"
#include "core/utf8.hpp"

namespace linkcast::trace {

namespace {

enum Column : int {
  kKind,
  kSrc,
  kDst,
  kBytes,
  kSrcMem,
  kDstMem,
  kStart,
  kDuration,
  kStream,
  kGroup,
  kRoot,
  kObject,
  kLine,
  kComm,
  kIssuer,
  kColumnCount
};

const std::array<std::string, kColumnCount> kColumnNames = {
    "kind",   "src",  "dst",  "bytes",  "src_mem", "dst_mem", "start_ns", "duration_ns",
    "stream", "group", "root", "object", "line",    "comm",    "issuer"};

std::vector<std::string> column_names() { return {kColumnNames.begin(), kColumnNames.end()}; }

/// The values of the few short texts a column repeats (endpoint names, kinds, memory kinds): up
/// to 16 texts of up to 8 bytes, each held as one word, so that a lookup is a few word compares
/// (a string compare or hash per field cost a third of reading a trace; issue 17).
template <class T>
class ShortTexts {
 public:
  /// The value of `v` where it is known.
  const T* find(std::string_view v) const {
    if (v.size() > 8) return nullptr;
    const std::uint64_t w = word(v);
    for (const Entry& e : entries_)
      if (e.word == w && e.size == v.size()) return &e.value;
    return nullptr;
  }
  /// Remembers v's value (a text too long or past the 16th is not kept).
  void keep(std::string_view v, T value) {
    if (v.size() <= 8 && entries_.size() < 16) entries_.push_back({word(v), static_cast<std::uint8_t>(v.size()), value});
  }

 private:
  static std::uint64_t word(std::string_view v) {
    std::uint64_t w = 0;
    for (std::size_t i = 0; i < v.size(); ++i) w |= std::uint64_t{static_cast<unsigned char>(v[i])} << (8 * i);
    return w;
  }
  struct Entry {
    std::uint64_t word;
    std::uint8_t size;
    T value;
  };
  std::vector<Entry> entries_;
};

/// Splits one CSV line into fields (RFC 4180 quoting). Unquoted fields are views into `line`;
/// quoted ones are unescaped into `scratch`, a deque: adding the line's next quoted field must
/// not move the strings the earlier fields' views point into (a vector did, and a short string
/// lives inside its own object: heap-use-after-free on a line with several quoted fields).
void split_fields(std::string_view line, std::vector<std::string_view>& fields,
                  std::deque<std::string>& scratch) {
  fields.clear();
  {
    // No quotes (the common case): split at every comma, in one pass over the bytes (fields are
    // a few bytes long: a library search per field costs more than it finds).
    const char* p = line.data();
    const char* const end = p + line.size();
    const char* field = p;
    for (; p != end; ++p) {
      if (*p == ',') {
        fields.emplace_back(field, static_cast<std::size_t>(p - field));
        field = p + 1;
      } else if (*p == '"') {
        break;
      }
    }
    if (p == end) {
      fields.emplace_back(field, static_cast<std::size_t>(end - field));
      return;
    }
    fields.clear();  // quoted fields: the general path below
  }
  std::size_t i = 0;
  std::size_t quoted = 0;
  while (true) {
    if (i < line.size() && line[i] == '"') {
      if (scratch.size() <= quoted) scratch.emplace_back();
      std::string& s = scratch[quoted++];
      s.clear();
      ++i;
      while (i < line.size()) {
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            s += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        s += line[i++];
      }
      fields.emplace_back(s);
      while (i < line.size() && line[i] != ',') ++i;
    } else {
      const std::size_t start = i;
      while (i < line.size() && line[i] != ',') ++i;
      fields.push_back(line.substr(start, i - start));
    }
    if (i >= line.size()) break;
    ++i;  // comma
    if (i == line.size()) {
      fields.emplace_back();
      break;
    }
  }
}

class CsvParser {
 public:
  CsvParser(std::string name, Trace& trace) : name_(std::move(name)), trace_(trace) {
    trace_.format = "csv";
    trace_.source_file = name_;
  }

  void line(std::string_view text) {
    ++line_no_;
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (!have_header_) {
      if (trim(text).empty() || text.front() == '#') return;
      header(text);
      return;
    }
    if (trim(text).empty()) {
      blank_pending_ = line_no_;
      return;
    }
    if (blank_pending_) {
      fail_at(blank_pending_, "blank line inside the data; remove it (records must be contiguous)");
    }
    record(text);
  }

  void finish() {
    if (!have_header_)
      throw InputError(fmt::format("{}: empty trace: no header line (expected at least {})", name_,
                                   "kind,src,dst,bytes"));
  }

 private:
  [[noreturn]] void fail_at(std::size_t line, const std::string& message) const {
    throw InputError(fmt::format("{}:{}: {}", name_, line, message));
  }
  [[noreturn]] void fail(int column, std::string_view value, const std::string& message) const {
    throw InputError(fmt::format("{}:{}: column '{}': '{}' {}", name_, line_no_, kColumnNames[column],
                                 value, message));
  }

  void header(std::string_view text) {
    split_fields(text, fields_, scratch_);
    index_.fill(-1);
    for (std::size_t i = 0; i < fields_.size(); ++i) {
      const std::string name(trim(fields_[i]));
      int found = -1;
      for (int c = 0; c < kColumnCount; ++c)
        if (kColumnNames[c] == name) found = c;
      if (found < 0) {
        fail_at(line_no_, fmt::format("unknown column '{}'{} in the header; columns are {}", name,
                                      did_you_mean(name, column_names()), join(column_names(), ",")));
      }
      if (index_[found] >= 0) fail_at(line_no_, fmt::format("column '{}' appears twice in the header", name));
      index_[found] = static_cast<int>(i);
    }
    for (int c : {kKind, kSrc, kDst, kBytes})
      if (index_[c] < 0)
        fail_at(line_no_, fmt::format("the header lacks the required column '{}' (required: "
                                      "kind,src,dst,bytes)", kColumnNames[c]));
    have_header_ = true;
    ncols_ = fields_.size();
    trace_.record_line_offset = line_no_ + 1;
  }

  std::string_view field(int c) const {
    const int i = index_[c];
    if (i < 0) return {};
    const std::string_view f = fields_[static_cast<std::size_t>(i)];
    if (!f.empty() && (f.front() == ' ' || f.back() == ' ' || f.front() == '\t' || f.back() == '\t')) return trim(f);
    return f;
  }

  std::uint64_t uint_field(int c, std::string_view v) const {
    // Fast path: up to 18 plain digits cannot overflow.
    if (!v.empty() && v.size() <= 18) {
      std::uint64_t out = 0;
      bool digits = true;
      for (char ch : v) {
        const unsigned d = static_cast<unsigned>(ch) - '0';
        if (d > 9) {
          digits = false;
          break;
        }
        out = out * 10 + d;
      }
      if (digits) return out;
    }
    if (!v.empty() && v.front() == '-')
      fail(c, v, "is negative; it must be a non-negative whole number");
    std::uint64_t out = 0;
    const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
    if (ec != std::errc() || ptr != v.data() + v.size()) {
      double d = 0;
      const auto [p2, e2] = std::from_chars(v.data(), v.data() + v.size(), d);
      if (e2 == std::errc() && p2 == v.data() + v.size() && d >= 0 && std::isfinite(d) && d < 9e18)
        return static_cast<std::uint64_t>(std::llround(d));
      fail(c, v, "is not a non-negative whole number");
    }
    return out;
  }

  /// A name: valid UTF-8 (it ends up in JSON and HTML) without control characters (a NUL ends
  /// the C strings messages and terminals see; tabs are allowed).
  std::string_view text_check(int c, std::string_view v) const {
    if (const auto at = invalid_utf8_at(v))
      fail(c, valid_utf8(v), fmt::format("is not valid UTF-8 (byte {}); save the file as UTF-8", *at + 1));
    for (std::size_t i = 0; i < v.size(); ++i) {
      const auto b = static_cast<unsigned char>(v[i]);
      if ((b < 0x20 && b != '\t') || b == 0x7f) {
        std::string shown;
        for (const char ch : v) {
          const auto u = static_cast<unsigned char>(ch);
          shown += (u < 0x20 && u != '\t') || u == 0x7f ? fmt::format("\\x{:02x}", u) : std::string(1, ch);
        }
        fail(c, shown, fmt::format("holds a control character (byte {}, 0x{:02x}); a name is printable text", i + 1, b));
      }
    }
    return v;
  }

  /// Nanoseconds: a whole number up to INT64_MAX (292 years).
  std::int64_t time_field(int c, std::string_view v) const {
    const std::uint64_t t = uint_field(c, v);
    if (t > static_cast<std::uint64_t>(INT64_MAX))
      fail(c, v, fmt::format("is above the largest time, {} ns", INT64_MAX));
    return static_cast<std::int64_t>(t);
  }

  std::uint16_t endpoint_field(int c, std::string_view v) {
    if (v.empty()) fail(c, v, "is empty; name an endpoint such as cpu0, gpu1 or host");
    // Records mostly name the same few short endpoints.
    if (const auto* known = short_endpoints_.find(v)) return *known;
    const auto cached = endpoint_cache_.find(v);
    if (cached != endpoint_cache_.end()) return cached->second;
    text_check(c, v);
    const std::uint16_t id = trace_.endpoint(v);
    endpoint_cache_.emplace(trace_.endpoint_name(id), id);
    short_endpoints_.keep(v, id);
    return id;
  }

  model::MemKind mem_field(int c, std::string_view v, std::uint16_t endpoint) {
    if (v.empty()) return is_host_name(trace_.endpoint_name(endpoint)) ? model::MemKind::pinned : model::MemKind::device;
    if (const auto* known = mem_kinds_.find(v)) return *known;
    const auto m = model::parse_mem_kind(v);
    if (!m) fail(c, v, "is not a memory kind; use pageable, pinned, device, managed or unknown");
    mem_kinds_.keep(v, *m);
    return *m;
  }

  OpKind kind_field(std::string_view kind) {
    if (const auto* known = kinds_.find(kind)) return *known;
    const auto k = parse_op_kind(kind);
    if (!k) fail(kKind, kind, fmt::format("is not an operation kind{}; use {}", did_you_mean(kind, op_kind_names()),
                                          join(op_kind_names(), ", ")));
    kinds_.keep(kind, *k);
    return *k;
  }

  void record(std::string_view text) {
    split_fields(text, fields_, scratch_);
    if (fields_.size() != ncols_) {
      fail_at(line_no_, fmt::format("{} fields, but the header has {} columns", fields_.size(), ncols_));
    }
    Op op;
    const std::string_view kind = field(kKind);
    op.kind = kind_field(kind);
    op.src = endpoint_field(kSrc, field(kSrc));
    op.dst = endpoint_field(kDst, field(kDst));
    op.bytes = uint_field(kBytes, field(kBytes));
    op.src_mem = mem_field(kSrcMem, field(kSrcMem), op.src);
    op.dst_mem = mem_field(kDstMem, field(kDstMem), op.dst);
    if (const auto v = field(kStart); !v.empty()) op.start_ns = time_field(kStart, v);
    if (const auto v = field(kDuration); !v.empty()) op.duration_ns = time_field(kDuration, v);
    if (const auto v = field(kStream); !v.empty()) {
      const std::uint64_t stream = uint_field(kStream, v);
      if (stream > UINT32_MAX) fail(kStream, v, fmt::format("is above the largest stream id, {}", UINT32_MAX));
      op.stream = static_cast<std::uint32_t>(stream);
    }
    if (const auto v = field(kGroup); !v.empty()) {
      std::vector<int> gpus;
      try {
        gpus = parse_gpu_list(v, "column 'group'");
      } catch (const InputError& e) {
        fail_at(line_no_, e.what());
      }
      std::vector<std::uint16_t> members;
      for (int g : gpus) members.push_back(endpoint_field(kGroup, fmt::format("gpu{}", g)));
      op.group = trace_.add_group(members);
    }
    if (const auto v = field(kRoot); !v.empty()) {
      const std::uint64_t r = uint_field(kRoot, v);
      if (r > 32767) fail(kRoot, v, "is too large for a rank");
      op.root = static_cast<std::int16_t>(r);
    }
    if (const auto v = field(kObject); !v.empty()) op.object = trace_.objects.intern(text_check(kObject, v));
    if (const auto v = field(kLine); !v.empty()) op.line = trace_.lines.intern(text_check(kLine, v));
    if (const auto v = field(kComm); !v.empty()) op.comm = trace_.comms.intern(text_check(kComm, v));
    if (const auto v = field(kIssuer); !v.empty()) op.issuer = endpoint_field(kIssuer, v);
    else if (op.kind == OpKind::access) op.issuer = op.dst;
    if (is_collective(op.kind) && op.group == 0) {
      fail_at(line_no_, fmt::format("a {} needs the GPUs taking part in column 'group' (e.g. 0-3)", kind));
    }
    if (trace_.size() >= kMaxTraceOps)
      fail_at(line_no_, fmt::format("more than {} operations; a trace holds at most that many (35 to 72 bytes each in "
                                    "memory): split the trace",
                                    kMaxTraceOps));
    trace_.push(op);
  }

  std::string name_;
  Trace& trace_;
  std::size_t line_no_ = 0;
  std::size_t blank_pending_ = 0;
  bool have_header_ = false;
  std::size_t ncols_ = 0;
  std::array<int, kColumnCount> index_{};
  std::vector<std::string_view> fields_;
  std::deque<std::string> scratch_;  // see split_fields
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, std::uint16_t, Hash, std::equal_to<>> endpoint_cache_;
  ShortTexts<std::uint16_t> short_endpoints_;
  ShortTexts<OpKind> kinds_;
  ShortTexts<model::MemKind> mem_kinds_;
};

}  // namespace

std::vector<int> parse_gpu_list(std::string_view text, std::string_view what, std::size_t max_gpus,
                                std::string_view limit) {
  auto fail = [&](const std::string& problem) -> void {
    throw InputError(fmt::format("{}: '{}' {}", what, text, problem));
  };
  std::vector<int> out;
  std::bitset<kMaxGpuIndex + 1> seen;
  const std::vector<std::string_view> parts = split(text, ';');
  for (std::size_t i = 0; i < parts.size(); ++i) {
    std::string_view part = parts[i];
    part = trim(part);
    const std::size_t dash = part.find('-');
    auto num = [&](std::string_view s) {
      std::uint64_t v = 0;
      s = trim(s);
      const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
      if (ec == std::errc::result_out_of_range || (ec == std::errc() && p == s.data() + s.size() && v > kMaxGpuIndex))
        fail(fmt::format("names GPU {}, above the largest GPU index, {}", s, kMaxGpuIndex));
      if (ec != std::errc() || p != s.data() + s.size() || s.empty()) fail("is not a GPU list; write 0-3 or 0;2;5");
      return static_cast<int>(v);
    };
    int a = 0, b = 0;
    if (dash != std::string_view::npos) {
      a = num(part.substr(0, dash));
      b = num(part.substr(dash + 1));
      if (b < a) throw InputError(fmt::format("{}: range '{}' runs backwards", what, part));
    } else {
      a = b = num(part);
    }
    const std::size_t count = out.size() + static_cast<std::size_t>(b - a) + 1;
    if (count > max_gpus) {
      fail(fmt::format("names {} GPUs; a list names at most {} ({})",
                       i + 1 == parts.size() ? std::to_string(count) : fmt::format("more than {}", max_gpus), max_gpus,
                       limit.empty() ? "the largest NVLink domain, NVL576" : limit));
    }
    for (int g = a; g <= b; ++g) {
      if (seen.test(static_cast<std::size_t>(g))) fail(fmt::format("lists GPU {} twice", g));
      seen.set(static_cast<std::size_t>(g));
      out.push_back(g);
    }
  }
  return out;
}

Trace parse_csv_trace(const std::string& text, const std::string& name) {
  Trace trace;
  trace.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
  CsvParser parser(name, trace);
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    parser.line(std::string_view(text).substr(start, end - start));
    start = end + 1;
  }
  parser.finish();
  return trace;
}

Trace read_csv_trace(const std::string& path) {
  InputFile file(path, {.file = "trace file", .corrupt = "a gzip'd trace"});
  const std::size_t size = file.size_on_disk();
  Trace trace;
  CsvParser parser(path, trace);
  // Read in large blocks into one reused buffer (memory stays flat whatever the file size); a
  // line cut by a block boundary moves to the buffer's front. The trace's columns are sized once
  // from the line length of the first block.
  constexpr std::size_t kBlock = 8u << 20;
  std::vector<char> buffer(kBlock);
  std::size_t have = 0;
  bool reserved = false;
  while (true) {
    const std::size_t got = file.read(buffer.data() + have, buffer.size() - have);
    const std::size_t total = have + got;
    const std::string_view data(buffer.data(), total);
    if (!reserved && total > 0) {
      const auto lines = static_cast<std::size_t>(std::count(data.begin(), data.end(), '\n'));
      if (lines > 1 && size > 0) trace.reserve(size / (total / lines) + 16);
      reserved = true;
    }
    std::size_t start = 0;
    while (true) {
      const char* nl = static_cast<const char*>(std::memchr(data.data() + start, '\n', total - start));
      if (!nl) break;
      const std::size_t end = static_cast<std::size_t>(nl - data.data());
      parser.line(data.substr(start, end - start));
      start = end + 1;
    }
    if (got == 0) {
      if (start < total) parser.line(data.substr(start));  // last line without a newline
      break;
    }
    have = total - start;
    std::memmove(buffer.data(), buffer.data() + start, have);
    if (have == buffer.size()) buffer.resize(buffer.size() * 2);  // a line longer than a block
  }
  parser.finish();
  return trace;
}

namespace {

std::string group_text(const Trace& trace, std::uint32_t group) {
  std::string out;
  for (std::uint16_t m : trace.group(group)) {
    if (!out.empty()) out += ';';
    const int g = endpoint_index(trace.endpoint_name(m), "gpu");
    out += std::to_string(g);
  }
  return out;
}

}  // namespace

void write_csv_trace(const Trace& trace, std::ostream& out) {
  out << "kind,src,dst,bytes,src_mem,dst_mem,start_ns,duration_ns,stream,group,root,object,line,comm,issuer\n";
  std::string row;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const Op op = trace.op(i);
    row.clear();
    fmt::format_to(std::back_inserter(row), "{},{},{},{},{},{},", to_string(op.kind), csv_field(trace.endpoint_name(op.src)),
                   csv_field(trace.endpoint_name(op.dst)), op.bytes, model::to_string(op.src_mem),
                   model::to_string(op.dst_mem));
    if (op.start_ns >= 0) fmt::format_to(std::back_inserter(row), "{}", op.start_ns);
    row += ',';
    if (op.duration_ns >= 0) fmt::format_to(std::back_inserter(row), "{}", op.duration_ns);
    fmt::format_to(std::back_inserter(row), ",{},{},", op.stream, op.group ? group_text(trace, op.group) : "");
    if (op.root >= 0) fmt::format_to(std::back_inserter(row), "{}", op.root);
    fmt::format_to(std::back_inserter(row), ",{},{},{},{}\n", csv_field(trace.objects[op.object]),
                   csv_field(trace.lines[op.line]), csv_field(trace.comms[op.comm]),
                   op.issuer == kNoEndpoint ? "" : csv_field(trace.endpoint_name(op.issuer)));
    out << row;
  }
}

void write_json_trace(const Trace& trace, std::ostream& out) {
  using nlohmann::json;
  json j;
  j["format"] = trace.format;
  j["source_file"] = trace.source_file;
  j["device_names"] = trace.device_names;
  json ops = json::array();
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const Op op = trace.op(i);
    json o = {{"kind", to_string(op.kind)},
              {"src", trace.endpoint_name(op.src)},
              {"dst", trace.endpoint_name(op.dst)},
              {"bytes", op.bytes},
              {"src_mem", model::to_string(op.src_mem)},
              {"dst_mem", model::to_string(op.dst_mem)},
              {"stream", op.stream}};
    if (op.start_ns >= 0) o["start_ns"] = op.start_ns;
    if (op.duration_ns >= 0) o["duration_ns"] = op.duration_ns;
    if (op.group) o["group"] = group_text(trace, op.group);
    if (op.root >= 0) o["root"] = op.root;
    if (op.object) o["object"] = trace.objects[op.object];
    if (op.line) o["line"] = trace.lines[op.line];
    if (op.comm) o["comm"] = trace.comms[op.comm];
    if (op.issuer != kNoEndpoint) o["issuer"] = trace.endpoint_name(op.issuer);
    ops.push_back(std::move(o));
  }
  j["ops"] = std::move(ops);
  out << j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

}  // namespace linkcast::trace
