#include "trace/csv.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
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
#include "core/read_ahead.hpp"
#include "core/strings.hpp"
#include "core/utf8.hpp"
#include "trace/csv_scan.hpp"

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
/// to 16 texts of up to 8 bytes, each held as one word in a small hash table, so that a lookup is
/// a multiply and a word compare or two (a string compare or hash per field cost a third of
/// reading a trace; issue 17). Texts looked up or kept need kFieldPadding readable bytes after
/// them.
template <class T>
class ShortTexts {
 public:
  /// The value of `v` where it is known.
  [[gnu::always_inline]] const T* find(std::string_view v) const {
    if (v.empty() || v.size() > 8) return nullptr;
    const std::uint64_t w = csv_short_word(v.data(), v.size());
    for (std::size_t s = slot(w);; s = (s + 1) % kSlots) {
      const Entry& e = slots_[s];
      if (e.word == w && e.size == v.size()) return &e.value;
      if (e.size == 0) return nullptr;
    }
  }
  /// Remembers v's value (a text too long or past the 16th is not kept).
  void keep(std::string_view v, T value) {
    if (v.empty() || v.size() > 8 || kept_ == kMaxKept) return;
    const std::uint64_t w = csv_short_word(v.data(), v.size());
    std::size_t s = slot(w);
    while (slots_[s].size != 0) s = (s + 1) % kSlots;
    slots_[s] = {w, static_cast<std::uint8_t>(v.size()), value};
    ++kept_;
  }

 private:
  static constexpr std::size_t kSlots = 32;
  static constexpr std::size_t kMaxKept = 16;  // at most half the slots: probes stay short
  static std::size_t slot(std::uint64_t w) { return static_cast<std::size_t>((w * 0x9E3779B97F4A7C15ULL) >> 59); }
  struct Entry {
    std::uint64_t word = 0;
    std::uint8_t size = 0;  // 0: a free slot
    T value{};
  };
  std::array<Entry, kSlots> slots_{};
  std::size_t kept_ = 0;
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

/// Bytes past a block's data the record scan may read (whole 64-byte groups; kFieldPadding).
constexpr std::size_t kScanSlack = 64;
static_assert(kScanSlack >= kFieldPadding);

class CsvParser {
 public:
  CsvParser(std::string name, Trace& trace) : name_(std::move(name)), trace_(trace) {
    trace_.format = "csv";
    trace_.source_file = name_;
  }

  /// Reads the complete lines at the front of `data`, and where `at_eof` a last one without a
  /// newline; returns the bytes read. kScanSlack bytes past `data` must be readable.
  std::size_t read_lines(std::string_view data, bool at_eof) {
    const char* p = data.data();
    const char* const end = p + data.size();
    while (p < end) {
      const char* line_end = nullptr;
      if (have_header_) {
        line_end = split_record(p, end);  // a record's fields are found on the way to its end
      } else {
        line_end = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
        if (!line_end) line_end = end;
      }
      if (line_end == end && !at_eof) break;  // the rest of the line is in the next block
      line(std::string_view(p, static_cast<std::size_t>(line_end - p)));
      p = line_end + 1;
    }
    return static_cast<std::size_t>(std::min(p, end) - data.data());
  }

  /// A line of more than `limit` bytes from the next line on: not a trace (a record is a few
  /// dozen bytes), and memory would grow with it.
  [[noreturn]] void refuse_long_line(std::size_t limit) const {
    fail_at(line_no_ + 1, fmt::format("a line longer than {} MiB; a record is a few dozen bytes: is this a CSV "
                                      "trace?", limit >> 20));
  }

  void finish() {
    if (!have_header_)
      throw InputError(fmt::format("{}: empty trace: no header line (expected at least {})", name_,
                                   "kind,src,dst,bytes"));
  }

 private:
  /// One line of the file, without its newline; after the header, split_record has looked at it.
  void line(std::string_view text) {
    ++line_no_;
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (!have_header_) {
      if (trim(text).empty() || text.front() == '#') return;
      header(text);
      return;
    }
    // (A blank line starts with a space: the test for one costs nothing on a record.)
    if (text.empty() || (is_space(text.front()) && trim(text).empty())) {
      blank_pending_ = line_no_;
      return;
    }
    if (blank_pending_) {
      fail_at(blank_pending_, "blank line inside the data; remove it (records must be contiguous)");
    }
    if (!fields_found_) split_quoted(text);
    record();
  }

  [[noreturn]] void fail_at(std::size_t line, const std::string& message) const {
    throw InputError(fmt::format("{}:{}: {}", name_, line, message));
  }
  [[noreturn]] void fail(int column, std::string_view value, const std::string& message) const {
    throw InputError(fmt::format("{}:{}: column '{}': '{}' {}", name_, line_no_, kColumnNames[static_cast<std::size_t>(column)],
                                 value, message));
  }

  void header(std::string_view text) {
    split_fields(text, fields_, scratch_);
    index_.fill(-1);
    for (std::size_t i = 0; i < fields_.size(); ++i) {
      const std::string name(trim(fields_[i]));
      int found = -1;
      for (int c = 0; c < kColumnCount; ++c)
        if (kColumnNames[static_cast<std::size_t>(c)] == name) found = c;
      if (found < 0) {
        fail_at(line_no_, fmt::format("unknown column '{}'{} in the header; columns are {}", name,
                                      did_you_mean(name, column_names()), join(column_names(), ",")));
      }
      if (index_[static_cast<std::size_t>(found)] >= 0) fail_at(line_no_, fmt::format("column '{}' appears twice in the header", name));
      index_[static_cast<std::size_t>(found)] = static_cast<int>(i);
      column_at_[i] = found;
    }
    for (int c : {kKind, kSrc, kDst, kBytes})
      if (index_[static_cast<std::size_t>(c)] < 0)
        fail_at(line_no_, fmt::format("the header lacks the required column '{}' (required: "
                                      "kind,src,dst,bytes)", kColumnNames[static_cast<std::size_t>(c)]));
    have_header_ = true;
    has_optional_ = false;
    for (int c = kGroup; c < kColumnCount; ++c) has_optional_ = has_optional_ || index_[static_cast<std::size_t>(c)] >= 0;
    ncols_ = fields_.size();
    column_at_[ncols_] = kColumnCount;
    trace_.record_line_offset = line_no_ + 1;
  }

  static bool is_blank(char c) { return c == ' ' || c == '\t'; }

  /// Column c's field of the current record, without surrounding blanks; empty where the header
  /// has no such column.
  [[gnu::always_inline]] std::string_view field(int c) const {
    const std::string_view f = by_column_[static_cast<std::size_t>(c)];
    if (has_blanks_ && !f.empty() && (is_blank(f.front()) || is_blank(f.back()))) return trim(f);
    return f;
  }

  /// Finds the end of the line at `line` (its newline, or `end`) and on the way its fields, where
  /// it is the common record: no quote in it and as many fields as the header has columns
  /// (fields_found_ says whether it was; if not, split_quoted reads it, or says what is wrong with
  /// it). Reads whole 64-byte groups, up to 63 bytes past `end`.
  const char* split_record(const char* line, const char* end) {
    const char* field = line;
    std::size_t pos = 0;
    bool quoted = false;
    bool blanks = false;
    for (const char* group = line;; group += 64) {
      CsvByteMasks m = csv_byte_masks(group);
      const bool last_group = end - group <= 64;
      if (last_group && end - group < 64) {
        const std::uint64_t inside = (std::uint64_t{1} << (end - group)) - 1;
        m.commas &= inside;
        m.quotes &= inside;
        m.newlines &= inside;
        m.blanks &= inside;
      }
      const char* line_end = nullptr;
      if (m.newlines != 0) {
        const int at = std::countr_zero(m.newlines);
        const std::uint64_t before = (std::uint64_t{1} << at) - 1;
        m.commas &= before;
        m.quotes &= before;
        m.blanks &= before;
        line_end = group + at;
      } else if (last_group) {
        line_end = end;
      }
      quoted |= m.quotes != 0;
      blanks |= m.blanks != 0;
      for (std::uint64_t c = m.commas; c != 0; c &= c - 1) {
        const char* const comma = group + std::countr_zero(c);
        by_column_[column_at(pos)] = {field, static_cast<std::size_t>(comma - field)};
        ++pos;
        field = comma + 1;
      }
      if (line_end) {
        const char* last = line_end;
        if (last > field && last[-1] == '\r') --last;  // as line() drops it
        by_column_[column_at(pos)] = {field, static_cast<std::size_t>(last - field)};
        fields_found_ = !quoted && pos + 1 == ncols_;
        has_blanks_ = blanks;
        return line_end;
      }
    }
  }

  /// The slot in by_column_ of the field at position `pos` of a record: the extra last slot for
  /// fields past the header's columns (the record is then refused; no branch here).
  std::size_t column_at(std::size_t pos) const { return static_cast<std::size_t>(column_at_[std::min(pos, ncols_)]); }

  /// The general split (RFC 4180 quoting), for the records split_record leaves.
  void split_quoted(std::string_view text) {
    has_blanks_ = true;
    split_fields(text, fields_, scratch_);
    if (fields_.size() != ncols_) {
      fail_at(line_no_, fmt::format("{} fields, but the header has {} columns", fields_.size(), ncols_));
    }
    // Fields unescaped into scratch_ lack the padding after them that the word reads need: every
    // field is copied into one buffer with kFieldPadding zero bytes after each (quoted records
    // are rare).
    std::size_t need = 0;
    for (const std::string_view f : fields_) need += f.size() + kFieldPadding;
    quoted_.assign(need, '\0');
    std::size_t at = 0;
    for (std::size_t pos = 0; pos < ncols_; ++pos) {
      if (!fields_[pos].empty()) std::memcpy(quoted_.data() + at, fields_[pos].data(), fields_[pos].size());
      by_column_[static_cast<std::size_t>(column_at_[pos])] = std::string_view(quoted_.data() + at, fields_[pos].size());
      at += fields_[pos].size() + kFieldPadding;
    }
  }

  [[gnu::always_inline]] std::uint64_t uint_field(int c, std::string_view v) const {
    if (const auto digits = csv_digits(v.data(), v.size())) return *digits;
    return uint_field_general(c, v);
  }

  /// What csv_digits leaves: more than 16 digits (std::from_chars refuses what overflows), a
  /// number written as a decimal, or an error.
  [[gnu::noinline]] std::uint64_t uint_field_general(int c, std::string_view v) const {
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
  [[gnu::always_inline]] std::int64_t time_field(int c, std::string_view v) const {
    const std::uint64_t t = uint_field(c, v);
    if (t > static_cast<std::uint64_t>(INT64_MAX))
      fail(c, v, fmt::format("is above the largest time, {} ns", INT64_MAX));
    return static_cast<std::int64_t>(t);
  }

  // The field readers below look the few texts a column repeats up in place, and leave the rest
  // (and every error) to a reader out of line.
  [[gnu::always_inline]] std::uint16_t endpoint_field(int c, std::string_view v) {
    // Records mostly name the same few short endpoints.
    if (const auto* known = short_endpoints_.find(v)) return *known;
    return endpoint_field_general(c, v);
  }

  [[gnu::noinline]] std::uint16_t endpoint_field_general(int c, std::string_view v) {
    if (v.empty()) fail(c, v, "is empty; name an endpoint such as cpu0, gpu1 or host");
    const auto cached = endpoint_cache_.find(v);
    if (cached != endpoint_cache_.end()) return cached->second;
    text_check(c, v);
    const std::uint16_t id = trace_.endpoint(v);
    endpoint_cache_.emplace(trace_.endpoint_name(id), id);
    short_endpoints_.keep(v, id);
    return id;
  }

  [[gnu::always_inline]] model::MemKind mem_field(int c, std::string_view v, std::uint16_t endpoint) {
    if (const auto* known = mem_kinds_.find(v)) return *known;
    return mem_field_general(c, v, endpoint);
  }

  [[gnu::noinline]] model::MemKind mem_field_general(int c, std::string_view v, std::uint16_t endpoint) {
    if (v.empty()) return is_host_name(trace_.endpoint_name(endpoint)) ? model::MemKind::pinned : model::MemKind::device;
    const auto m = model::parse_mem_kind(v);
    if (!m) fail(c, v, "is not a memory kind; use pageable, pinned, device, managed or unknown");
    mem_kinds_.keep(v, *m);
    return *m;
  }

  [[gnu::always_inline]] OpKind kind_field(std::string_view kind) {
    if (const auto* known = kinds_.find(kind)) return *known;
    return kind_field_general(kind);
  }

  [[gnu::noinline]] OpKind kind_field_general(std::string_view kind) {
    const auto k = parse_op_kind(kind);
    if (!k) fail(kKind, kind, fmt::format("is not an operation kind{}; use {}", did_you_mean(kind, op_kind_names()),
                                          join(op_kind_names(), ", ")));
    kinds_.keep(kind, *k);
    return *k;
  }

  /// The columns most traces lack (group, root, object, line, comm, issuer) into `op`; read only
  /// where the header has one of them.
  void optional_fields(Op& op) {
    if (const auto v = field(kGroup); !v.empty()) {
      std::vector<int> gpus;
      try {
        gpus = parse_gpu_list(v, "column 'group'");
      } catch (const InputError& e) {
        fail_at(line_no_, e.what());
      }
      std::vector<std::uint16_t> members;
      for (int g : gpus) {
        std::string name = fmt::format("gpu{}", g);
        const std::size_t size = name.size();
        name.append(kFieldPadding, '\0');  // as a field has (ShortTexts)
        members.push_back(endpoint_field(kGroup, std::string_view(name.data(), size)));
      }
      op.group = trace_.add_group(members);
    }
    if (const auto v = field(kRoot); !v.empty()) {
      const std::uint64_t r = uint_field(kRoot, v);
      if (r > 32767) fail(kRoot, v, "is too large for a rank");
      if (op.group != 0 && r >= trace_.group(op.group).size())
        fail(kRoot, v, fmt::format("is not a rank of group {} (its ranks are 0 to {}, in the group's order)",
                                   field(kGroup), trace_.group(op.group).size() - 1));
      op.root = static_cast<std::int16_t>(r);
    }
    if (const auto v = field(kObject); !v.empty()) op.object = trace_.objects.intern(text_check(kObject, v));
    if (const auto v = field(kLine); !v.empty()) op.line = trace_.lines.intern(text_check(kLine, v));
    if (const auto v = field(kComm); !v.empty()) op.comm = trace_.comms.intern(text_check(kComm, v));
    if (const auto v = field(kIssuer); !v.empty()) op.issuer = endpoint_field(kIssuer, v);
  }

  void record() {
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
    if (has_optional_) optional_fields(op);
    // An access with no issuer given is a load, issued by its destination.
    if (op.issuer == kNoEndpoint && op.kind == OpKind::access) op.issuer = op.dst;
    if (is_collective(op.kind) && op.group == 0) {
      fail_at(line_no_, fmt::format("{} is a collective: it needs the GPUs taking part in column 'group' (e.g. 0-3)", kind));
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
  std::array<int, kColumnCount> index_{};      // column -> its position in the header, -1 absent
  std::array<int, kColumnCount + 1> column_at_{};  // position in the header -> column; past them kColumnCount
  std::array<std::string_view, kColumnCount + 1> by_column_{};  // the current record's fields; absent columns empty
  bool fields_found_ = false;  // split_record found the current record's fields
  bool has_optional_ = false;  // the header has a column from kGroup on (optional_fields)
  bool has_blanks_ = true;    // the current record may have fields to trim (a space or a tab in it)
  std::vector<std::string_view> fields_;
  std::deque<std::string> scratch_;  // see split_fields
  std::string quoted_;               // a quoted record's fields, each with room after it
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

namespace {

/// Rows to reserve for a file of `total_bytes` whose first bytes are `sample`: its lines where the
/// sample is the whole file, else as many as the sample's line length gives (counting every line
/// of a long file first cost a tenth of reading it).
std::size_t estimated_lines(std::string_view sample, std::size_t total_bytes) {
  const auto lines = static_cast<std::size_t>(std::count(sample.begin(), sample.end(), '\n'));
  if (sample.size() >= total_bytes) return lines + 1;
  if (lines <= 1) return 0;
  return total_bytes / (sample.size() / lines) + 16;
}

}  // namespace

namespace {

/// Reads a CSV trace of about `size` bytes (0: unknown) from `fill(into, room)`, which copies up
/// to `room` bytes of it to `into` and returns how many (0 at its end). In large blocks, read
/// ahead on a second thread while the parser reads the block before (core/read_ahead.hpp): memory
/// stays flat whatever the file's size. A line cut by a block's end is put before the next block,
/// in the room the block has in front of it. The trace's columns are sized once from the line
/// length of the first block.
Trace read_csv_blocks(const std::string& name, std::size_t size, ReadAhead::Fill fill) {
  Trace trace;
  CsvParser parser(name, trace);
  // 1 MiB blocks in four buffers; smaller ones for a small file. The parser waits for the first
  // block, and the last one is parsed after the reader has finished: with 8 MiB blocks in two
  // buffers a gzip'd trace took zlib's time plus 8 MiB of parsing (1.08-1.24x zlib's time on
  // BM_CsvIngestGzip against 1.02-1.12x now; 256 KiB blocks were slower for plain files).
  const std::size_t block = std::clamp<std::size_t>(size, 64u << 10, 1u << 20);
  constexpr std::size_t kHeadroom = 64u << 10;
  constexpr std::size_t kMaxLineBytes = 16u << 20;
  ReadAhead ahead(block, kHeadroom, kScanSlack, std::move(fill), 4);
  std::vector<char> carry;  // the line cut by the last block's end (copied: that block goes back to be filled)
  bool reserved = false;
  while (true) {
    const ReadAhead::Block next = ahead.next();
    const bool at_end = next.size == 0;
    std::string_view data;
    if (carry.size() <= kHeadroom && !at_end) {
      if (!carry.empty()) std::memcpy(next.data - carry.size(), carry.data(), carry.size());
      data = std::string_view(next.data - carry.size(), carry.size() + next.size);
    } else {  // a line longer than the room, or the last one
      const auto* newline = at_end ? nullptr : static_cast<const char*>(std::memchr(next.data, '\n', next.size));
      const bool completed = at_end || newline != nullptr;
      const std::size_t line_bytes = carry.size() + static_cast<std::size_t>((newline ? newline : next.data + next.size) - next.data);
      if (line_bytes > kMaxLineBytes) parser.refuse_long_line(kMaxLineBytes);
      carry.insert(carry.end(), next.data, next.data + next.size);
      if (!completed) continue;  // gathered whole before it is read: one pass over a long line
      const std::size_t bytes = carry.size();
      carry.resize(bytes + kScanSlack);  // the scan reads past the data
      data = std::string_view(carry.data(), bytes);
    }
    if (!reserved && !data.empty()) {
      if (size > 0) trace.reserve(estimated_lines(data.substr(0, 1u << 20), std::max(size, data.size())));
      reserved = true;
    }
    const std::size_t read = parser.read_lines(data, at_end);
    if (at_end) break;
    std::vector<char>(data.begin() + static_cast<std::ptrdiff_t>(read), data.end()).swap(carry);
  }
  parser.finish();
  return trace;
}

}  // namespace

Trace parse_csv_trace(const std::string& text, const std::string& name) {
  std::size_t at = 0;
  return read_csv_blocks(name, text.size(), [&text, &at](char* into, std::size_t room) {
    const std::size_t n = std::min(room, text.size() - at);
    std::memcpy(into, text.data() + at, n);
    at += n;
    return n;
  });
}

Trace read_csv_trace(const std::string& path) {
  InputFile file(path, {.file = "trace file", .corrupt = "a gzip'd trace"});
  return read_csv_blocks(path, file.expected_size(), [&](char* into, std::size_t room) { return file.read(into, room); });
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
