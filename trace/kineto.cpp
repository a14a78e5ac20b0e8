#include "trace/kineto.hpp"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/error.hpp"
#include "core/utf8.hpp"
#include "core/input_file.hpp"
#include "core/read_ahead.hpp"
#include "core/strings.hpp"
#include "core/units.hpp"
#include "trace/kineto_shapes.hpp"
#include "trace/limits.hpp"

namespace linkcast::trace {

namespace {

using model::MemKind;

// --- Bytes in, in blocks ------------------------------------------------------------------------

/// Where the JSON text comes from: a file through zlib (which reads plain files as they are) or
/// a string in memory.
class Source {
 public:
  virtual ~Source() = default;
  /// Appends up to `max` bytes at `to`; 0 at the end. Throws InputError when the file is corrupt.
  virtual std::size_t read(char* to, std::size_t max) = 0;
};

/// A file read ahead on a second thread (core/read_ahead.hpp): zlib inflates the next block of a
/// gzip'd trace while the reader parses this one.
class FileSource : public Source {
 public:
  explicit FileSource(const std::string& path)
      : file_(path, {.file = "trace file", .corrupt = "the gzip file"}),
        ahead_(kBlock, 0, 0, [this](char* to, std::size_t max) { return file_.read(to, max); }) {}
  std::size_t read(char* to, std::size_t max) override {
    if (left_ == 0 && !ended_) {
      const ReadAhead::Block b = ahead_.next();
      at_ = b.data;
      left_ = b.size;
      ended_ = b.size == 0;
    }
    const std::size_t n = std::min(max, left_);
    if (n > 0) std::memcpy(to, at_, n);
    at_ += n;
    left_ -= n;
    return n;
  }

 private:
  static constexpr std::size_t kBlock = std::size_t{4} << 20;
  InputFile file_;
  ReadAhead ahead_;  // after file_: stopped before the file closes
  const char* at_ = nullptr;
  std::size_t left_ = 0;
  bool ended_ = false;
};

class StringSource : public Source {
 public:
  explicit StringSource(const std::string& text) : text_(text) {}
  std::size_t read(char* to, std::size_t max) override {
    const std::size_t n = std::min(max, text_.size() - at_);
    std::memcpy(to, text_.data() + at_, n);
    at_ += n;
    return n;
  }

 private:
  const std::string& text_;
  std::size_t at_ = 0;
};

/// Bit k set where p[k], k < 64, is a byte the scanner acts on: '"', '\\', ',', '{', '}', '[', ']'
/// (and '|', 0x02 and 0x0C, which fold onto them and which it passes over). Most of a trace's
/// bytes are none of these: 64 are tested at once (a byte at a time, and eight at a time within
/// strings, the scan took a third of reading a trace; issue 17).
std::uint64_t scanner_bytes(const char* p) {
#if defined(__SSE2__)
  // Setting bit 0x20 folds '[' onto '{', ']' onto '}' and '\\' onto '|': five compares.
  const __m128i fold = _mm_set1_epi8(0x20);
  std::uint64_t hits = 0;
  for (int k = 0; k < 4; ++k) {
    const __m128i v = _mm_or_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k)), fold);
    const __m128i quote_or_comma = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8(',')));
    const __m128i braces = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('{')), _mm_cmpeq_epi8(v, _mm_set1_epi8('}')));
    const __m128i any = _mm_or_si128(_mm_or_si128(quote_or_comma, braces), _mm_cmpeq_epi8(v, _mm_set1_epi8('|')));
    hits |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(any))} << (16 * k);
  }
  return hits;
#else
  static constexpr std::array<bool, 256> kActs = [] {
    std::array<bool, 256> t{};
    for (const unsigned char c : {'"', '\\', '{', '[', '}', ']', ','}) t[c] = true;
    return t;
  }();
  std::uint64_t hits = 0;
  for (int k = 0; k < 64; ++k) hits |= std::uint64_t{kActs[static_cast<unsigned char>(p[k])]} << k;
  return hits;
#endif
}

/// Where the quotes, backslashes, opening ('{', '[') and closing ('}', ']') brackets are among the
/// 64 bytes at `p`, exactly (scanner_bytes folds some control bytes onto them): what
/// Window::value_length needs to pass over a block deep inside an event without looking at its
/// strings and commas one by one.
struct BlockStructure {
  std::uint64_t quotes = 0, backslashes = 0, opens = 0, closes = 0;
};

BlockStructure block_structure(const char* p) {
  BlockStructure b;
#if defined(__SSE2__)
  for (int k = 0; k < 4; ++k) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    const auto bits = [&](__m128i m) { return std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(m))} << (16 * k); };
    b.quotes |= bits(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')));
    b.backslashes |= bits(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    b.opens |= bits(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('{')), _mm_cmpeq_epi8(v, _mm_set1_epi8('['))));
    b.closes |= bits(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('}')), _mm_cmpeq_epi8(v, _mm_set1_epi8(']'))));
  }
#else
  for (int k = 0; k < 64; ++k) {
    const std::uint64_t bit = std::uint64_t{1} << k;
    switch (p[k]) {
      case '"': b.quotes |= bit; break;
      case '\\': b.backslashes |= bit; break;
      case '{':
      case '[': b.opens |= bit; break;
      case '}':
      case ']': b.closes |= bit; break;
      default: break;
    }
  }
#endif
  return b;
}

/// Bit k set where byte k lies inside a string (its opening quote included, its closing quote
/// not), given the quotes' bits and whether a string was open before bit 0; no escapes.
std::uint64_t inside_strings(std::uint64_t quotes, bool open_before) {
  std::uint64_t x = quotes;  // prefix XOR: each quote flips in/out for every byte after it
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return open_before ? ~x : x;
}

/// An event's top-level "ph", "cat" and "name", noted by Window::value_length as it finds the
/// event's end, so that the reader can pass over the events it has no use for without parsing
/// them. Values are offsets from the event's start (the window may move while it is scanned).
class EventHead {
 public:
  struct Span {
    std::size_t at = 0, size = 0;  // size 0: absent, empty, or not a string (what the parser reads as "")
  };

  const Span& ph() const { return ph_; }
  const Span& cat() const { return cat_; }
  const Span& name() const { return name_; }
  /// A key or one of these values holds an escape: only a full parse tells what it says.
  bool escaped() const { return escaped_; }

  /// After the object's '{' or a ',' between its members: the next top-level string is a key.
  void expect_key() { expecting_key_ = true; }
  /// An escape in a top-level string.
  void escape() {
    if (expecting_key_ || value_of_ != nullptr) escaped_ = true;
  }
  /// A top-level string closed: `size` bytes at `text`, `at` bytes into the event.
  void string(const char* text, std::size_t at, std::size_t size) {
    if (expecting_key_) {
      expecting_key_ = false;
      value_of_ = member(text, size);
      // A repeated key overrides, as for the parser, and a value that is no string reads as "".
      if (value_of_ != nullptr) *value_of_ = Span{};
    } else if (value_of_ != nullptr) {
      *value_of_ = Span{at, size};
      value_of_ = nullptr;
    }
  }

 private:
  /// The span a key names, if one of these; the keys' lengths differ (this runs for every key).
  Span* member(const char* key, std::size_t size) {
    switch (size) {
      case 2: return std::memcmp(key, "ph", 2) == 0 ? &ph_ : nullptr;
      case 3: return std::memcmp(key, "cat", 3) == 0 ? &cat_ : nullptr;
      case 4: return std::memcmp(key, "name", 4) == 0 ? &name_ : nullptr;
      default: return nullptr;
    }
  }

  Span ph_, cat_, name_;
  Span* value_of_ = nullptr;  // the member whose value comes next
  bool expecting_key_ = false;
  bool escaped_ = false;
};

/// A window over the JSON text: `data()[pos() .. size())` is what has been read and not consumed.
/// `need(n)` makes at least n bytes available (fewer only at the end of the input); the bytes
/// after size() are always SIMDJSON_PADDING readable bytes, as simdjson requires.
class Window {
 public:
  explicit Window(Source& src) : src_(src), buf_(kBlock + simdjson::SIMDJSON_PADDING) {}

  const char* data() const { return buf_.data(); }
  std::size_t pos() const { return pos_; }
  std::size_t size() const { return end_; }
  void advance(std::size_t n) { pos_ += n; }
  /// Bytes consumed before the window's start, for messages.
  std::size_t offset() const { return base_ + pos_; }

  bool need(std::size_t n) {
    if (end_ - pos_ >= n) return true;
    if (eof_) return false;
    // Move the unconsumed tail to the front; grow when one item is longer than a block.
    base_ += pos_;
    std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
    end_ -= pos_;
    pos_ = 0;
    while (end_ < n && !eof_) {
      if (buf_.size() - simdjson::SIMDJSON_PADDING - end_ < kBlock / 4) {
        if (buf_.size() > kMaxItemBytes)
          throw InputError("one JSON item is larger than 1 GiB: not a Kineto trace event");
        buf_.resize(buf_.size() * 2);
      }
      const std::size_t got = src_.read(buf_.data() + end_, buf_.size() - simdjson::SIMDJSON_PADDING - end_);
      if (got == 0) eof_ = true;
      end_ += got;
    }
    std::memset(buf_.data() + end_, ' ', simdjson::SIMDJSON_PADDING);
    return end_ - pos_ >= n;
  }

  /// The next non-whitespace byte (0 at the end of the input), without consuming it.
  char peek() {
    while (true) {
      while (pos_ < end_) {
        const char c = buf_[pos_];
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return c;
        ++pos_;
      }
      if (!need(1)) return 0;
    }
  }

  /// Whether the input has ended: peek() gives 0 there, and at a NUL byte in the text too.
  bool at_end() { return peek() == 0 && pos_ >= end_; }

  /// Length of the JSON value starting at pos() (an object, array, string or scalar), reading
  /// more input as needed; 0 when the input ends inside it. With `head`, an object's top-level
  /// "ph", "cat" and "name" are noted there on the way.
  std::size_t value_length(EventHead* head = nullptr) {
    if (head) *head = EventHead{};
    std::size_t i = 0, string_start = 0;
    int depth = 0;
    bool in_string = false;
    while (true) {
      if (pos_ + i >= end_ && !need(i + 1)) return 0;
      const char* p = buf_.data() + pos_;
      const std::size_t n = end_ - pos_;
      while (i < n) {
        // Two levels into the value and more (an event's args), only the depth and the strings'
        // ends matter until it comes back to one: a block without escapes whose brackets outside
        // strings keep it there is passed over whole.
        if (depth >= 2 && pass_over_deep_block(p + i, depth, in_string)) {
          i = std::min(i + 64, n);
          continue;
        }
        // The bytes to act on among the next 64 (those past n are the window's padding spaces).
        std::uint64_t hits = scanner_bytes(p + i);
        const std::size_t base = i;
        i = std::min(base + 64, n);
        while (hits != 0) {
          const std::size_t at = base + static_cast<std::size_t>(std::countr_zero(hits));
          hits &= hits - 1;
          const char c = p[at];
          if (in_string) {
            if (c == '\\') {
              if (head && depth == 1) head->escape();
              i = at + 2;  // on past the escaped byte (it may lie past the window: the loop re-checks)
              break;
            }
            if (c != '"') continue;
            in_string = false;
            if (depth == 0) return at + 1;
            if (head && depth == 1) head->string(p + string_start + 1, string_start + 1, at - string_start - 1);
            continue;
          }
          switch (c) {
            case '"':
              in_string = true;
              string_start = at;
              break;
            case '{':
            case '[':
              if (++depth == 1 && head) head->expect_key();
              break;
            case '}':
            case ']':
              if (depth == 0) return at;  // a scalar ended by its container's close
              if (--depth == 0) return at + 1;
              break;
            case ',':
              if (depth == 0) return at;  // a scalar ended by a comma
              if (depth == 1 && head) head->expect_key();
              break;
            default: break;  // '|' and the control bytes scanner_bytes reports with the others
          }
        }
      }
      if (eof_) return depth == 0 && !in_string ? i : 0;
    }
  }

 private:
  /// For value_length: where the 64 bytes at `p` hold no backslash and, outside strings, brackets
  /// that never bring `depth` below 2, applies them (`depth`, and `in_string` at the block's end)
  /// and says true; else false, with both untouched.
  static bool pass_over_deep_block(const char* p, int& depth, bool& in_string) {
    const BlockStructure b = block_structure(p);
    if (b.backslashes != 0) return false;
    const std::uint64_t strings = inside_strings(b.quotes, in_string);
    std::uint64_t brackets = (b.opens | b.closes) & ~strings;
    int d = depth;
    while (brackets != 0) {
      const std::uint64_t bit = brackets & (~brackets + 1);
      d += (b.opens & bit) != 0 ? 1 : -1;
      if (d < 2) return false;
      brackets &= brackets - 1;
    }
    depth = d;
    in_string = (strings >> 63) != 0;
    return true;
  }

  static constexpr std::size_t kBlock = std::size_t{4} << 20;
  static constexpr std::size_t kMaxItemBytes = std::size_t{1} << 30;
  Source& src_;
  std::vector<char> buf_;
  std::size_t pos_ = 0, end_ = 0, base_ = 0;
  bool eof_ = false;
};

// --- Events ------------------------------------------------------------------------------------

/// Bytes per element of the dtype names PyTorch writes ("Float", "BFloat16", ...: c10's
/// ScalarType names, c10/core/ScalarType.h; the packed types, Float4_e2m1fn_x2 and QUInt4x2,
/// count a byte per element of two values).
std::optional<int> dtype_bytes(std::string_view dtype) {
  static const std::map<std::string, int, std::less<>> kSizes = {
      {"float", 4},    {"float32", 4},  {"double", 8},   {"float64", 8},  {"half", 2},
      {"float16", 2},  {"bfloat16", 2}, {"int", 4},      {"int32", 4},    {"long", 8},
      {"int64", 8},    {"short", 2},    {"int16", 2},    {"char", 1},     {"int8", 1},
      {"byte", 1},     {"uint8", 1},    {"bool", 1},     {"uint16", 2},   {"uint32", 4},
      {"uint64", 8},   {"float8_e4m3fn", 1}, {"float8_e5m2", 1}, {"float8_e4m3fnuz", 1},
      {"float8_e5m2fnuz", 1}, {"float8_e8m0fnu", 1}, {"float4_e2m1fn_x2", 1}, {"complexhalf", 4},
      {"complexfloat", 8}, {"complexdouble", 16}, {"qint8", 1}, {"quint8", 1}, {"qint32", 4},
      {"quint4x2", 1}, {"quint2x4", 1}};
  const auto it = kSizes.find(to_lower(dtype));
  if (it == kSizes.end()) return std::nullopt;
  return it->second;
}

MemKind kineto_mem(std::string_view s) {
  const std::string l = to_lower(trim(s));
  if (l == "pageable") return MemKind::pageable;
  if (l == "pinned") return MemKind::pinned;
  if (l == "device") return MemKind::device;
  if (l == "managed") return MemKind::managed;
  return MemKind::unknown;
}

/// What an event is, from its category (PyTorch 1.8 capitalised them and called runtime calls
/// "Runtime" and CPU operators "Operator").
enum class Cat : std::uint8_t { other, kernel, memcpy, memset, runtime, annotation, cpu_op };

Cat category(std::string_view cat) {
  if (cat == "kernel" || cat == "Kernel") return Cat::kernel;
  if (cat == "gpu_memcpy" || cat == "Memcpy") return Cat::memcpy;
  if (cat == "gpu_memset" || cat == "Memset") return Cat::memset;
  if (cat == "cuda_runtime" || cat == "cuda_driver" || cat == "Runtime" || cat == "Driver") return Cat::runtime;
  if (cat == "user_annotation" || cat == "User annotation" || cat == "user annotation") return Cat::annotation;
  if (cat == "cpu_op" || cat == "Operator") return Cat::cpu_op;
  return Cat::other;
}

/// The CPU operators the reader keeps: ProfilerStep#N (a cpu_op in some PyTorch versions) as an
/// annotation, and aten::_to_copy, whose copies write into fresh tensors.
bool is_profiler_step(std::string_view name) { return starts_with(name, "ProfilerStep#"); }
bool is_to_copy(std::string_view name) { return name == "aten::_to_copy"; }

/// Fields of one event the reader uses.
struct Event {
  std::string_view ph, cat, name;
  double ts = 0, dur = 0;
  bool has_ts = false, has_dur = false;
  std::int64_t pid = 0, tid = 0;
  bool tid_is_text = false;
  std::string_view tid_text;
  double bytes = 0, device = 0, stream = 0, from_device = -1, to_device = -1;
  bool has_from_device = false, has_to_device = false;  // the args give them (any value)
  // The first of bytes, device, fromDevice, toDevice given as something that is no number (text,
  // true, a list): its key and JSON, for the message that refuses it (a NaN said nothing).
  std::string_view bad_key;
  std::string bad_value;
  double correlation = -1;
  double external_id = -1;  // links a kernel to the CPU operator that launched it
  double in_nelems = std::numeric_limits<double>::quiet_NaN(), out_nelems = std::numeric_limits<double>::quiet_NaN();
  double group_size = 0;  // NaN above: the arg is absent
  std::string_view collective, dtype, group_name;
  std::string group_ranks;  // "[0, 1]" whether written as text or as a list
  // An NCCL send's "Dst Rank", a recv's "Src Rank" (the peer's global rank); the group's "Global
  // rank start" and "Global rank stride" (its members start + k * stride). NaN: absent.
  double p2p_dst = std::numeric_limits<double>::quiet_NaN(), p2p_src = std::numeric_limits<double>::quiet_NaN();
  double rank_start = std::numeric_limits<double>::quiet_NaN(), rank_stride = std::numeric_limits<double>::quiet_NaN();
  bool uneven_splits = false;  // "In split size" or "Out split size" lists sizes that differ
  KernelInfo kernel;
};

/// A span on a CPU thread, for the fresh-destination rule.
struct Span {
  double begin_us, end_us;
};

class Reader {
 public:
  Reader(Trace& trace, std::string name) : trace_(trace), name_(std::move(name)) {}

  void read(Window& w) {
    if (w.peek() == '[') {
      // The Chrome trace format's other form, a list of events alone, which the first libkineto
      // wrote (PyTorch's TensorBoard plugin samples of December 2020); its closing ']' may be
      // left out.
      array_form_ = true;
      events(w);
      if (chrome_events_ == 0) {
        throw InputError(fmt::format("{}: a JSON list without trace events (objects with a \"ph\"): not a PyTorch "
                                     "profiler / Kineto Chrome trace",
                                     name_));
      }
      finish();
      return;
    }
    if (w.peek() != '{') {
      fail(w, "the file starts with neither a JSON object nor a list of events: not a PyTorch profiler / Kineto "
              "Chrome trace");
    }
    w.advance(1);
    bool saw_events = false, saw_nodes = false;
    while (true) {
      char c = w.peek();
      if (c == '}') {
        w.advance(1);
        break;
      }
      if (c == ',') {
        w.advance(1);
        continue;
      }
      if (c != '"') fail(w, "expected a key in the top-level object");
      const std::size_t klen = w.value_length();
      if (klen < 2) fail(w, "the file ends inside a key");
      const std::string key(w.data() + w.pos() + 1, klen - 2);
      w.advance(klen);
      if (w.peek() != ':') fail(w, fmt::format("expected ':' after the key \"{}\"", key));
      w.advance(1);
      if (key == "traceEvents") {
        // Python's json and HTA keep a repeated key's last list; this reader would join them.
        if (saw_events)
          fail(w, "\"traceEvents\" is given twice; a profiler writes one list (the file was edited or joined): keep "
                  "one");
        saw_events = true;
        events(w);
      } else {
        saw_nodes = saw_nodes || key == "nodes";
        other_value(w, key);
      }
    }
    if (!saw_events && saw_nodes)
      throw InputError(fmt::format("{}: a PyTorch execution trace (ExecutionTraceObserver's \"nodes\"), not a profiler "
                                   "trace: it holds the operators, not the GPU's copies and kernels; record with "
                                   "torch.profiler (activities CPU and CUDA) and give its Chrome trace "
                                   "(export_chrome_trace or tensorboard_trace_handler)",
                                   name_));
    if (!saw_events)
      throw InputError(fmt::format("{}: JSON without a \"traceEvents\" list: not a PyTorch profiler / "
                                   "Kineto Chrome trace",
                                   name_));
    // Text after the object's closing brace (a second document appended): not JSON, and unread.
    if (!w.at_end())
      fail(w, "text after the trace's closing brace (a second JSON document?); a profiler writes one object: the "
              "file was edited or joined");
    finish();
  }

 private:
  [[noreturn]] void fail(const Window& w, const std::string& what) const {
    throw InputError(fmt::format("{}: byte {}: {}", name_, w.offset(), what));
  }

  void events(Window& w) {
    if (w.peek() != '[') fail(w, "\"traceEvents\" is not a list");
    w.advance(1);
    while (true) {
      const char c = w.peek();
      if (c == ']') {
        w.advance(1);
        return;
      }
      if (c == ',') {
        w.advance(1);
        continue;
      }
      if (c == 0 && array_form_ && w.at_end()) return;  // the list form's closing ']' may be left out
      if (c == 0) fail(w, "the file ends inside \"traceEvents\"; it is truncated");
      const std::size_t len = w.value_length(&head_);
      if (len == 0) fail(w, "the file ends inside an event; it is truncated");
      ++event_index_;
      if (c == '{') {
        const char* event = w.data() + w.pos();
        if (head_.ph().size > 0) ++chrome_events_;
        const std::string_view cat(event + head_.cat().at, head_.cat().size);
        if (cat.starts_with("mtia")) ++mtia_events_;
        if (cat == "cuda_profiler_range") ++profiler_range_events_;
        const Use use = use_of(head_, event);
        if (use.parse) parse_event(w, len);
        if (use.shapes)
          if (const auto in = operator_inputs(std::string_view(event, len))) note_operator_bytes(*in);
      }
      w.advance(len);
    }
  }

  /// What the reader does with an event, told by the top-level "ph", "cat" and "name" that `head`
  /// noted in the text at `event`.
  struct Use {
    bool parse = false;   // handle() may keep it: parsed whole
    bool shapes = false;  // a CPU operator: operator_inputs() reads its tensors' bytes from its text
                          // where it was recorded with shapes (kernel_scaling's memory-bound share)
  };
  /// Most of a trace is CPU operators and flow arrows that handle() drops (three quarters of the
  /// bytes of a PyTorch 2 training trace): they are passed over unparsed, and so unvalidated, as
  /// the elements of traceEvents that are no objects are.
  static Use use_of(const EventHead& head, const char* event) {
    if (head.escaped()) return {.parse = true};
    auto text = [&](const EventHead::Span& s) { return std::string_view(event + s.at, s.size); };
    if (text(head.ph()) != "X") return {};
    const Cat cat = category(text(head.cat()));
    if (cat == Cat::cpu_op)
      return {.parse = is_profiler_step(text(head.name())) || is_to_copy(text(head.name())), .shapes = true};
    return {.parse = cat != Cat::other};
  }

  /// A top-level value other than traceEvents: deviceProperties and distributedInfo are read,
  /// the rest skipped.
  void other_value(Window& w, const std::string& key) {
    if (w.peek() == 0) fail(w, fmt::format("the file ends after the key \"{}\"", key));
    const std::size_t len = w.value_length();
    if (len == 0) fail(w, fmt::format("the file ends inside the value of \"{}\"", key));
    if (key == "record_shapes") {
      // PyTorch 2's profiler writes whether it recorded the operators' shapes: 1 or true.
      const std::string_view v(w.data() + w.pos(), len);
      record_shapes_ = v.starts_with("1") || v.starts_with("true");
    } else if (key == "baseTimeNanoseconds") {
      // A whole number of ns since the epoch, written as a number or as text, plain or with an
      // exponent (1.790857026e18 is a base time too); anything else is refused, since every time
      // of the trace counts from it when ranks are put on one clock.
      std::string_view v(w.data() + w.pos(), len);
      while (!v.empty() && (v.front() == '"' || v.front() == ' ')) v.remove_prefix(1);
      while (!v.empty() && (v.back() == '"' || v.back() == ' ' || v.back() == '\n' || v.back() == '\r')) v.remove_suffix(1);
      std::int64_t base = 0;
      const auto [end, error] = std::from_chars(v.data(), v.data() + v.size(), base);
      if (error != std::errc() || end != v.data() + v.size()) {
        double d = 0;
        const auto [dend, derror] = std::from_chars(v.data(), v.data() + v.size(), d);
        // 2^63 ns is the year 2262: past it no int64 holds the time.
        if (derror != std::errc() || dend != v.data() + v.size() || !std::isfinite(d) || d < 0 ||
            d >= 9223372036854775808.0)
          fail(w, fmt::format("baseTimeNanoseconds {} is not a time in ns since the epoch (a whole number from 0 to "
                              "2^63 - 1); the file is corrupt or was edited",
                              v));
        base = static_cast<std::int64_t>(d);
      }
      if (base < 0)
        fail(w, fmt::format("baseTimeNanoseconds {} is negative; the file is corrupt or was edited", v));
      if (base > 0) trace_.base_time_ns = base;
    } else if (key == "deviceProperties" || key == "distributedInfo") {
      simdjson::dom::element doc;
      if (const auto err = parser_.parse(w.data() + w.pos(), len, false).get(doc))
        fail(w, fmt::format("\"{}\" is not valid JSON ({})", key, simdjson::error_message(err)));
      if (key == "deviceProperties") {
        simdjson::dom::array devices;
        if (!doc.get_array().get(devices))
          for (simdjson::dom::element d : devices) device(d);
      } else {
        distributed(doc);
      }
    }
    w.advance(len);
  }

  /// A number written as a number or as text ("1.5"); NaN otherwise.
  static double number(simdjson::dom::element v) {
    double d = 0;
    if (!v.get_double().get(d)) return d;
    std::int64_t i = 0;
    if (!v.get_int64().get(i)) return static_cast<double>(i);
    std::uint64_t u = 0;
    if (!v.get_uint64().get(u)) return static_cast<double>(u);
    std::string_view s;
    if (!v.get_string().get(s)) {
      const std::string text(s);
      char* end = nullptr;
      d = std::strtod(text.c_str(), &end);
      return end != text.c_str() ? d : std::nan("");
    }
    return std::nan("");
  }

  static std::string_view text(simdjson::dom::element v) {
    std::string_view s;
    return v.get_string().get(s) ? std::string_view{} : s;
  }

  int device_index(double d, std::string_view what) {
    if (!std::isfinite(d) || d < 0 || d > kMaxDeviceIndex || d != std::floor(d))
      throw InputError(fmt::format("{}: event {}: {} {} is not a device index (0 to {})", name_, event_index_,
                                   what, d, kMaxDeviceIndex));
    return static_cast<int>(d);
  }

  void device(simdjson::dom::element d) {
    simdjson::dom::object obj;
    if (d.get_object().get(obj)) return;
    double id = -1;
    std::string device_name;
    for (const auto [key, value] : obj) {
      if (key == "id") id = number(value);
      else if (key == "name") device_name = std::string(text(value));
    }
    if (!std::isfinite(id) || id < 0) return;
    const int i = device_index(id, "deviceProperties id");
    if (trace_.device_names.size() <= static_cast<std::size_t>(i)) trace_.device_names.resize(static_cast<std::size_t>(i) + 1);
    trace_.device_names[static_cast<std::size_t>(i)] = device_name;
  }

  /// The most ranks a job's distributedInfo may give (the largest jobs run some 100,000 GPUs).
  static constexpr int kMaxRanks = 1000000;

  void distributed(simdjson::dom::element d) {
    simdjson::dom::object obj;
    if (d.get_object().get(obj)) return;
    for (const auto [key, value] : obj) {
      if ((key != "rank" && key != "world_size") || value.is_null()) continue;
      // A rank or world size that is no whole number in range places the trace nowhere in its job
      // (read as absent, a -1 or 1.5 merged as if no rank were given): refused.
      const double v = number(value);
      const double least = key == "rank" ? 0 : 1;
      if (!std::isfinite(v) || v < least || v > kMaxRanks || v != std::floor(v)) {
        throw InputError(fmt::format("{}: distributedInfo gives {} {}, which is no {} ({} to {}); the trace was "
                                     "edited or is corrupt: correct it, or remove distributedInfo to read the trace "
                                     "as one rank's",
                                     name_, key, simdjson::minify(value), key == "rank" ? "rank" : "job size",
                                     least, kMaxRanks));
      }
      if (key == "rank") trace_.rank = static_cast<int>(v);
      else trace_.world_size = static_cast<int>(v);
    }
    if (trace_.world_size > 0 && trace_.rank >= trace_.world_size)
      throw InputError(fmt::format("{}: distributedInfo gives rank {} of a job of world_size {} (ranks 0 to {}): the "
                                   "two disagree, so the rank's place in its job is unknown; correct one of them",
                                   name_, trace_.rank, trace_.world_size, trace_.world_size - 1));
  }

  /// `event` with its bare non-finite numbers (inf, -inf, nan, Infinity: not JSON, but PyTorch
  /// 1.8's Kineto wrote "memory bandwidth (GB/s)": inf for a copy of no duration, pytorch/kineto#105)
  /// made null; nullopt where it has none.
  static std::optional<std::string> with_non_finite_as_null(std::string_view event) {
    std::string out;
    bool in_string = false, replaced = false;
    for (std::size_t i = 0; i < event.size(); ++i) {
      const char c = event[i];
      if (in_string) {
        if (c == '\\') {
          out += c;
          if (++i < event.size()) out += event[i];
          continue;
        }
        in_string = c != '"';
        out += c;
        continue;
      }
      if (c == '"') in_string = true;
      std::size_t token = 0;
      for (std::string_view t : {"-Infinity", "Infinity", "-inf", "inf", "-nan", "nan", "NaN"})
        if (event.substr(i).starts_with(t)) {
          token = t.size();
          break;
        }
      if (token > 0) {
        out += "null";
        i += token - 1;
        replaced = true;
        continue;
      }
      out += c;
    }
    if (!replaced) return std::nullopt;
    return out;
  }

  void parse_event(Window& w, std::size_t len) {
    simdjson::dom::element doc;
    if (const auto err = parser_.parse(w.data() + w.pos(), len, false).get(doc)) {
      const std::string_view event(w.data() + w.pos(), len);
      // Bytes that are no UTF-8 in a string: libkineto writes thread and process names unescaped,
      // and Linux cuts a thread's name at 15 bytes, through a character where it must. Read with
      // U+FFFD in their place (said), rather than refusing the trace over a name.
      if (err == simdjson::UTF8_ERROR && !parser_.parse(valid_utf8(event)).get(doc)) {
        ++invalid_utf8_events_;
      } else {
        const std::optional<std::string> fixed = with_non_finite_as_null(event);
        if (!fixed || parser_.parse(*fixed).get(doc))
          fail(w, fmt::format("event {} is not valid JSON ({}{}); the file is not a Kineto trace or is corrupt",
                              event_index_, simdjson::error_message(err),
                              err == simdjson::NUMBER_ERROR
                                  ? ": a malformed number, or a whole number past 2^64 - 1, which no count reaches"
                                  : ""));
        ++non_finite_events_;
      }
    }
    simdjson::dom::object obj;
    if (doc.get_object().get(obj)) return;  // not an event object: skipped
    Event e;
    for (const auto [key, value] : obj) {
      if (key == "ph") e.ph = text(value);
      else if (key == "cat") e.cat = text(value);
      else if (key == "name") e.name = text(value);
      else if (key == "ts") {
        e.ts = number(value);
        e.has_ts = std::isfinite(e.ts);
      } else if (key == "dur") {
        e.dur = number(value);
        e.has_dur = std::isfinite(e.dur);
      } else if (key == "pid") {
        const double p = number(value);
        e.pid = std::isfinite(p) ? static_cast<std::int64_t>(std::clamp(p, -1e15, 1e15)) : 0;
      } else if (key == "tid") {
        if (value.is_string()) {
          e.tid_is_text = true;
          e.tid_text = text(value);
        } else {
          const double t = number(value);
          e.tid = std::isfinite(t) ? static_cast<std::int64_t>(std::clamp(t, -1e15, 1e15)) : 0;
        }
      } else if (key == "args") {
        simdjson::dom::object a;
        if (!value.get_object().get(a)) args(a, e);
      }
    }
    handle(e);
  }

  /// number(value) for an arg that must be one: anything else but null is kept in `e` to be named.
  static double checked_number(simdjson::dom::element value, std::string_view key, Event& e) {
    const double d = number(value);
    if (std::isnan(d) && !value.is_null() && e.bad_key.empty()) {
      e.bad_key = key;
      e.bad_value = simdjson::minify(value);
      if (e.bad_value.size() > 40) e.bad_value = e.bad_value.substr(0, 40) + "...";
    }
    return d;
  }

  /// Whether a split-size arg ("[1, 1023]" as text, or a list) lists sizes that differ; "[]"
  /// (an even split), the "..." PyTorch ends a list of more than 30 with, and entries that are no
  /// number are passed over.
  static bool uneven_list(simdjson::dom::element value) {
    std::vector<double> sizes;
    simdjson::dom::array list;
    if (!value.get_array().get(list)) {
      for (simdjson::dom::element v : list) sizes.push_back(number(v));
    } else {
      std::string text(Reader::text(value));
      for (char& c : text)
        if (c == '[' || c == ']') c = ' ';
      for (std::string_view s : split(text, ',')) sizes.push_back(parse_finite(trim(s)));
    }
    std::erase_if(sizes, [](double x) { return !std::isfinite(x); });
    return std::adjacent_find(sizes.begin(), sizes.end(), std::not_equal_to<>()) != sizes.end();
  }

  /// `s` as a number, NaN where it is none ("...", a word).
  static double parse_finite(std::string_view s) {
    double x = 0;
    const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), x);
    return !s.empty() && error == std::errc() && end == s.data() + s.size() ? x : std::nan("");
  }

  void args(simdjson::dom::object obj, Event& e) {
    for (const auto [key, value] : obj) {
      if (key == "bytes") e.bytes = checked_number(value, "bytes", e);
      else if (key == "External id") e.external_id = number(value);
      else if (key == "device") e.device = checked_number(value, "device", e);
      else if (key == "stream") e.stream = number(value);
      else if (key == "fromDevice") {
        e.from_device = checked_number(value, "fromDevice", e);
        e.has_from_device = true;
      } else if (key == "toDevice") {
        e.to_device = checked_number(value, "toDevice", e);
        e.has_to_device = true;
      }
      else if (key == "correlation") e.correlation = number(value);
      else if (key == "Collective name") e.collective = text(value);
      else if (key == "In msg nelems") e.in_nelems = number(value);
      else if (key == "Out msg nelems") e.out_nelems = number(value);
      else if (key == "Group size") e.group_size = checked_number(value, "Group size", e);
      else if (key == "Dst Rank") e.p2p_dst = checked_number(value, "Dst Rank", e);
      else if (key == "Src Rank") e.p2p_src = checked_number(value, "Src Rank", e);
      else if (key == "Global rank start") e.rank_start = number(value);
      else if (key == "Global rank stride") e.rank_stride = number(value);
      else if (key == "dtype") e.dtype = text(value);
      else if (key == "Process Group Name") e.group_name = text(value);
      else if (key == "In split size" || key == "Out split size") e.uneven_splits |= uneven_list(value);
      else if (key == "Process Group Ranks") {
        simdjson::dom::array list;
        if (!value.get_array().get(list)) {
          e.group_ranks = "[";
          for (simdjson::dom::element r : list) {
            if (e.group_ranks.size() > 1) e.group_ranks += ", ";
            e.group_ranks += fmt::format("{:g}", number(r));
          }
          e.group_ranks += "]";
        } else {
          e.group_ranks = std::string(text(value));
        }
      } else if (key == "grid" || key == "block") {
        simdjson::dom::array dims;
        if (value.get_array().get(dims)) continue;
        std::uint64_t product = 1;
        bool any = false;
        for (simdjson::dom::element d : dims) {
          const double v = number(d);
          if (!std::isfinite(v) || v < 1 || v > 4.3e9) continue;
          product = std::min<std::uint64_t>(product * static_cast<std::uint64_t>(v), 0xFFFFFFFFu);
          any = true;
        }
        if (any) (key == "grid" ? e.kernel.grid_blocks : e.kernel.block_threads) = static_cast<std::uint32_t>(product);
      } else if (key == "blocks per SM") {
        const double v = number(value);
        if (std::isfinite(v) && v >= 0 && v < 1e9) e.kernel.blocks_per_sm = static_cast<float>(v);
      } else if (key == "est. achieved occupancy %") {
        const double v = number(value);
        if (std::isfinite(v) && v >= 0 && v <= 100) e.kernel.occupancy_pct = static_cast<std::int8_t>(std::lround(v));
      } else if (key == "registers per thread") {
        const double v = number(value);
        if (std::isfinite(v) && v >= 0 && v < 65536) e.kernel.registers = static_cast<std::uint16_t>(v);
      } else if (key == "shared memory") {
        const double v = number(value);
        if (std::isfinite(v) && v >= 0 && v < 4.3e9) e.kernel.shared_bytes = static_cast<std::uint32_t>(v);
      }
    }
  }

  /// Microseconds -> ns, refused when outside what any recording can hold. Profilers write
  /// microseconds since the Unix epoch (1.68e15 in 2023) or since their own start; 4.6e15 us is the
  /// year 2115, and keeps ns within half of int64's range so that end - start cannot overflow.
  static constexpr double kMaxAbsUs = 4.6e15;
  std::int64_t to_ns(double us, std::string_view what) const {
    if (!std::isfinite(us) || std::fabs(us) > kMaxAbsUs)
      throw InputError(fmt::format("{}: event {}: {} {} us is not a time a profiler records", name_, event_index_,
                                   what, us));
    return std::llround(us * 1000.0);
  }

  std::uint16_t gpu(int index) {
    const auto i = static_cast<std::size_t>(index);
    if (i < gpu_ids_.size() && gpu_ids_[i] != kNoEndpoint) return gpu_ids_[i];
    const std::uint16_t id = trace_.endpoint(fmt::format("gpu{}", index));
    if (gpu_ids_.size() <= i) gpu_ids_.resize(i + 1, kNoEndpoint);
    gpu_ids_[i] = id;
    return id;
  }

  std::uint16_t host() {
    if (host_ == kNoEndpoint) host_ = trace_.endpoint("host");
    return host_;
  }

  std::uint32_t thread_of(const Event& e) {
    const std::string label =
        e.tid_is_text ? fmt::format("{}/{}", e.pid, e.tid_text) : fmt::format("{}/{}", e.pid, e.tid);
    return trace_.thread_names.intern(label);
  }

  void handle(const Event& e) {
    if (e.ph != "X") return;
    if (!e.has_ts) {
      // GPU work without a usable start (missing, null, text, NaN) cannot be placed: left out, said.
      const Cat c = category(e.cat);
      if (c == Cat::kernel || c == Cat::memcpy || c == Cat::memset) ++untimed_gpu_work_;
      return;
    }
    const Cat cat = category(e.cat);
    if (cat == Cat::other) return;
    if (cat == Cat::cpu_op) {
      // ProfilerStep#N is a cpu_op in some PyTorch versions; aten::_to_copy marks fresh outputs.
      if (is_profiler_step(e.name)) annotation(e);
      else if (is_to_copy(e.name) && e.has_dur) to_copy_spans_[thread_of(e)].push_back({e.ts, e.ts + e.dur});
      return;
    }
    if (cat == Cat::annotation) {
      annotation(e);
      return;
    }
    if (cat == Cat::runtime) {
      runtime(e);
      return;
    }
    if (!e.bad_key.empty()) {
      throw InputError(fmt::format("{}: event {}: {} {} is not {}; the trace is corrupt", name_, event_index_, e.bad_key,
                                   e.bad_value,
                                   e.bad_key == "bytes" ? std::string("a count (a whole number, 0 or more)")
                                   : e.bad_key == "Group size" ? std::string("a count of ranks (a whole number)")
                                   : e.bad_key.ends_with("Rank") ? fmt::format("a rank (0 to {})", kMaxDeviceIndex)
                                                                 : fmt::format("a device index (0 to {})", kMaxDeviceIndex)));
    }
    Op op;
    op.start_ns = to_ns(e.ts, "ts");
    op.duration_ns = duration_of(e);
    if (!std::isfinite(e.stream) || e.stream < 0 || e.stream > 4.29e9)
      throw InputError(fmt::format("{}: event {}: stream {} is not a stream id", name_, event_index_, e.stream));
    op.stream = static_cast<std::uint32_t>(e.stream);
    const int device = device_index(e.device, "device");
    const std::size_t record = trace_.size();
    if (cat == Cat::memcpy) {
      if (!memcpy(op, device, e)) return;
    } else if (cat == Cat::memset) {
      op.kind = OpKind::memset;
      op.src = op.dst = gpu(device);
      op.src_mem = op.dst_mem = MemKind::device;
      op.bytes = count_of(e.bytes, "bytes");
      if (op.bytes == 0) ++unsized_memsets_;
      push(op);
    } else if (is_nccl_kernel(e.name)) {
      if (!collective(op, device, e)) return;
    } else {
      op.kind = OpKind::kernel;
      op.src = op.dst = gpu(device);
      op.src_mem = op.dst_mem = MemKind::device;
      op.name = trace_.op_names.intern(e.name);
      push(op);
    }
    if (e.kernel.grid_blocks || e.kernel.block_threads || e.kernel.blocks_per_sm > 0) {
      const std::uint32_t info = trace_.add_kernel_info(e.kernel);
      trace_.set_kernel(trace_.size() - 1, info);
      if (op.kind == OpKind::kernel && e.external_id >= 0 && e.external_id <= kMaxExternalId)  // NaN fails both
        kernel_operator_.push_back({static_cast<std::uint32_t>(std::llround(e.external_id)), info});
    }
    if (e.correlation >= 0 && std::isfinite(e.correlation)) gpu_correlation_.push_back({record, key(e)});
  }

  /// External ids the profiler numbers from 1 in one process: larger ones (no recording has four
  /// billion operators) are not linked.
  static constexpr double kMaxExternalId = 4294967295.0;

  /// The room a table that reads `n` entries of a trace grows to when full: a quarter more rather
  /// than double, since a trace's size is unknown until its end and doubling left up to half of a
  /// long trace's tables empty.
  static std::size_t grown(std::size_t n) { return n + std::max<std::size_t>(n / 4, 4096); }

  /// Keeps a CPU operator's input bytes for the kernels of its External id: 8 bytes each (a
  /// shape-recorded training trace has about two operators a kernel), growing as the rows do, so
  /// that reading keeps below what the replay takes later.
  void note_operator_bytes(const OperatorInputs& in) {
    if (in.external_id > static_cast<std::uint64_t>(kMaxExternalId)) return;
    if (operator_bytes_.size() == operator_bytes_.capacity()) operator_bytes_.reserve(grown(operator_bytes_.capacity()));
    operator_bytes_.push_back({static_cast<std::uint32_t>(in.external_id), static_cast<float>(in.bytes)});
  }

  /// Appends an operation in file order (finish() puts them in start order).
  void push(const Op& op) {
    if (trace_.size() == rows_reserved_) {
      rows_reserved_ = grown(rows_reserved_);
      trace_.reserve(rows_reserved_);
    }
    trace_.push(op);
  }

  /// A byte or element count an event gives (NaN where it gives none: 0); a negative or fractional
  /// one is no count, and the event is refused (profilers write whole numbers).
  std::uint64_t count_of(double b, std::string_view what) const {
    if (std::isnan(b)) return 0;
    if (!std::isfinite(b) || b < 0 || b != std::floor(b)) {
      throw InputError(fmt::format("{}: event {}: {} {} is not a count (a whole number, 0 or more); the trace is "
                                   "corrupt",
                                   name_, event_index_, what, b));
    }
    if (what == "bytes" && b > static_cast<double>(kMaxOpBytes)) {
      throw InputError(fmt::format("{}: event {}: bytes {:g} is more than any device holds ({} at most): the trace is "
                                   "corrupt",
                                   name_, event_index_, b, format_bytes(kMaxOpBytes)));
    }
    return b >= 1.8e19 ? std::uint64_t{0} - 1 : static_cast<std::uint64_t>(b);
  }
  /// An event's duration in ns; a negative one is counted (warn) and read as 0.
  std::int64_t duration_of(const Event& e) {
    if (!e.has_dur) return 0;
    const std::int64_t ns = to_ns(e.dur, "dur");
    if (ns < 0) ++negative_durations_;
    return std::max<std::int64_t>(0, ns);
  }

  /// The correlation id that links a runtime call and the GPU work it launched: unique within the
  /// profiled process, and a Kineto file holds one process (GPU events carry the device as pid).
  static std::uint64_t key(const Event& e) { return static_cast<std::uint64_t>(std::llround(e.correlation)); }

  /// A CPU-side operation of `kind` (an annotation or a runtime call) on the event's thread.
  Op cpu_op(OpKind kind, const Event& e) {
    Op op;
    op.kind = kind;
    op.src = op.dst = host();
    op.start_ns = to_ns(e.ts, "ts");
    op.duration_ns = duration_of(e);
    op.name = trace_.op_names.intern(e.name);
    op.thread = thread_of(e);
    return op;
  }

  void annotation(const Event& e) { push(cpu_op(OpKind::annotation, e)); }

  void runtime(const Event& e) {
    const Op op = cpu_op(OpKind::runtime, e);
    if (e.correlation >= 0 && std::isfinite(e.correlation)) runtime_correlation_.push_back({key(e), trace_.size()});
    push(op);
  }

  bool memcpy(Op& op, int device, const Event& e) {
    // "Memcpy HtoD (Pinned -> Device)"
    const std::string_view n = e.name;
    const std::size_t open = n.find('('), arrow = n.find("->"), close = n.find(')');
    if (open != std::string_view::npos && arrow != std::string_view::npos && close != std::string_view::npos &&
        open < arrow && arrow < close) {
      op.src_mem = kineto_mem(n.substr(open + 1, arrow - open - 1));
      op.dst_mem = kineto_mem(n.substr(arrow + 2, close - arrow - 2));
    }
    op.bytes = count_of(e.bytes, "bytes");
    if (op.bytes == 0) ++unsized_copies_;
    if (n.find("HtoD") != std::string_view::npos) {
      op.src = host();
      op.dst = gpu(device);
    } else if (n.find("DtoH") != std::string_view::npos) {
      op.src = gpu(device);
      op.dst = host();
    } else if (n.find("PtoP") != std::string_view::npos) {
      // Absent: the event's own device; given: a device index, else refused.
      op.src = gpu(e.has_from_device ? device_index(e.from_device, "fromDevice") : device);
      op.dst = gpu(e.has_to_device ? device_index(e.to_device, "toDevice") : device);
    } else if (n.find("DtoD") != std::string_view::npos) {
      op.src = op.dst = gpu(device);
    } else if (n.find("HtoH") != std::string_view::npos) {
      op.src = op.dst = host();
    } else {
      ++skipped_;
      return false;
    }
    // host_, not host(): a copy within the GPUs must not make the host an endpoint of the trace.
    const bool host_src = host_ != kNoEndpoint && op.src == host_ && op.dst != host_;
    const bool host_dst = host_ != kNoEndpoint && op.dst == host_ && op.src != host_;
    if ((host_src && op.src_mem == MemKind::unknown) || (host_dst && op.dst_mem == MemKind::unknown)) {
      if (unknown_host_memory_++ == 0) unknown_host_memory_name_ = std::string(n);
    }
    op.kind = OpKind::copy;
    op.issuer = kNoEndpoint;
    push(op);
    return true;
  }

  bool collective(Op& op, int device, const Event& e) {
    const std::string cname = to_lower(e.collective);
    const std::string lname = to_lower(e.name);
    auto has = [&](const char* s) {
      return cname.find(s) != std::string::npos || (cname.empty() && lname.find(s) != std::string::npos);
    };
    bool use_out = false;
    if (has("allgather") || has("all_gather")) {
      op.kind = OpKind::allgather;
      use_out = true;
    } else if (has("reducescatter") || has("reduce_scatter")) op.kind = OpKind::reducescatter;
    else if (has("allreduce") || has("all_reduce")) op.kind = OpKind::allreduce;
    else if (has("alltoall") || has("all_to_all")) op.kind = OpKind::alltoall;
    else if (has("broadcast")) op.kind = OpKind::broadcast;
    else if (has("reduce")) op.kind = OpKind::reduce;
    else if (has("sendrecv") || (has("send") && has("recv"))) op.kind = OpKind::send;
    else if (has("send")) op.kind = OpKind::send;
    else if (has("recv")) op.kind = OpKind::recv;
    else {
      // An NCCL kernel whose collective neither its name (ncclDevKernel_Generic) nor its args tell:
      // kept as a kernel (its time counts), and said.
      ++unknown_collectives_;
      op.kind = OpKind::kernel;
      op.src = op.dst = gpu(device);
      op.name = trace_.op_names.intern(e.name);
      push(op);
      return true;
    }
    op.name = trace_.op_names.intern(e.name);
    const auto size = dtype_bytes(e.dtype);
    if (!size && !e.dtype.empty()) unknown_dtypes_.insert(std::string(e.dtype));
    const double nelems = use_out ? e.out_nelems : e.in_nelems;
    if (std::isnan(nelems)) ++unsized_collectives_;
    else if (e.dtype.empty()) ++untyped_collectives_;
    // An allreduce's input and output hold the same elements.
    if (op.kind == OpKind::allreduce && std::isfinite(e.in_nelems) && std::isfinite(e.out_nelems) &&
        e.in_nelems != e.out_nelems)
      ++in_out_mismatches_;
    const std::uint64_t elements = count_of(nelems, use_out ? "Out msg nelems" : "In msg nelems");
    const std::uint64_t element_bytes = size.value_or(1);
    op.bytes = elements > (std::uint64_t{0} - 1) / element_bytes ? std::uint64_t{0} - 1 : elements * element_bytes;
    op.src = op.dst = gpu(device);
    op.src_mem = op.dst_mem = MemKind::device;
    if (op.kind == OpKind::send || op.kind == OpKind::recv) return point_to_point(op, device, e);
    // The group's ranks as the recording names them (ranks, not GPU indices: a rank's GPU is the
    // device its own trace records; one rank's trace alone places rank r on GPU r).
    std::vector<int> group;  // the ranks
    std::string ranks = e.group_ranks;
    for (char& c : ranks)
      if (c == '[' || c == ']') c = ' ';
    std::vector<bool> listed;
    // PyTorch lists a group of more than 30 ranks cut short: "[0, 1, ..., 29, ...]" (the first 30),
    // or, since its collective metadata was rewritten, "[0, 1, ..., 28, ..., 63]" (the first 29
    // and the last).
    bool cut_short = false;
    std::optional<int> last_listed;  // the rank after the '...' (the newer form)
    for (std::string_view r : split(ranks, ',')) {
      r = trim(r);
      if (r.empty()) continue;
      if (r == "...") {
        if (cut_short)
          throw InputError(fmt::format("{}: event {}: \"Process Group Ranks\" has two '...' (PyTorch cuts a long "
                                       "list once); the trace is edited or corrupt",
                                       name_, event_index_));
        cut_short = true;
        continue;
      }
      if (cut_short && last_listed)
        throw InputError(fmt::format("{}: event {}: \"Process Group Ranks\" goes on after its '...' by more than one "
                                     "rank (PyTorch keeps the first ranks of a long list, and at most its last); the "
                                     "trace is edited or corrupt",
                                     name_, event_index_));
      int v = -1;
      const auto [end, error] = std::from_chars(r.data(), r.data() + r.size(), v);
      if (error != std::errc() || end != r.data() + r.size() || v < 0 || v > kMaxDeviceIndex)
        throw InputError(fmt::format("{}: event {}: rank '{}' in \"Process Group Ranks\" is not a rank (a whole number "
                                     "0 to {})",
                                     name_, event_index_, r, kMaxDeviceIndex));
      if (listed.size() <= static_cast<std::size_t>(v)) listed.resize(static_cast<std::size_t>(v) + 1);
      if (listed[static_cast<std::size_t>(v)])
        throw InputError(fmt::format("{}: event {}: \"Process Group Ranks\" lists rank {} twice; a collective's ranks "
                                     "are distinct",
                                     name_, event_index_, v));
      listed[static_cast<std::size_t>(v)] = true;
      if (cut_short) last_listed = v;
      else group.push_back(v);
    }
    if (cut_short) group = whole_cut_short_group(e, group, last_listed);
    else if (!group.empty() && std::isfinite(e.group_size) && e.group_size > 0 &&
             e.group_size != static_cast<double>(group.size()))
      ++group_size_mismatches_;
    if (std::isfinite(e.group_size) && e.group_size < 0)
      throw InputError(fmt::format("{}: event {}: \"Group size\" {} is no count of ranks; the trace is edited or "
                                   "corrupt",
                                   name_, event_index_, e.group_size));
    if (group.empty()) {
      const double g = std::isfinite(e.group_size) ? e.group_size : 0;
      if (g > kMaxDeviceIndex + 1)
        throw InputError(fmt::format("{}: event {}: \"Group size\" {} is more ranks than linkcast places on a node "
                                     "(at most {})",
                                     name_, event_index_, g, kMaxDeviceIndex + 1));
      if (g >= 2) {
        if (g != std::floor(g))
          throw InputError(fmt::format("{}: event {}: \"Group size\" {} is no whole number of ranks; the trace is "
                                       "edited or corrupt",
                                       name_, event_index_, g));
        group = unlisted_group(e, static_cast<int>(g));
        if (group.empty()) {
          // A group other than the job's world that names neither its ranks nor where they start: its
          // members cannot be told (ranks 0..n-1 would put a data-parallel pair {0, 2} on gpu0-gpu1).
          op.kind = OpKind::kernel;
          push(op);
          ++unplaceable_subgroups_;
          return true;
        }
      } else {
        ++ungrouped_collectives_;
      }
    }
    std::vector<std::uint16_t> members;
    for (const int r : group) members.push_back(gpu(r));
    if (members.size() < 2) {
      // Without its members a collective cannot be modelled: kept as a kernel of its duration.
      op.kind = OpKind::kernel;
      push(op);
      return true;
    }
    if (op.kind == OpKind::broadcast || op.kind == OpKind::reduce) ++rootless_collectives_;
    if (op.kind == OpKind::alltoall && e.uneven_splits) ++uneven_alltoalls_;
    op.group = trace_.add_group(members);
    op.comm = trace_.comms.intern(e.group_name.empty() ? std::string("default_pg") : "pg:" + std::string(e.group_name));
    push(op);
    return true;
  }

  /// An NCCL send or recv kernel: a transfer between this rank's GPU and its peer's, where the
  /// trace names the peer (PyTorch's "Dst Rank" of a send, "Src Rank" of a recv: the peer's global
  /// rank, which its GPU is named by once the job's ranks are placed, as a group's members are);
  /// without one (PyTorch before those args), kept as GPU work of its duration, and said.
  bool point_to_point(Op& op, int device, const Event& e) {
    const bool send = op.kind == OpKind::send;
    const double peer = send ? e.p2p_dst : e.p2p_src;
    if (std::isnan(peer)) {
      op.kind = OpKind::kernel;
      push(op);
      ++p2p_kernels_;
      return true;
    }
    if (peer != std::floor(peer) || peer < 0 || peer > kMaxDeviceIndex)
      throw InputError(fmt::format("{}: event {}: \"{}\" {} is not a rank (a whole number 0 to {}); the trace is "
                                   "corrupt",
                                   name_, event_index_, send ? "Dst Rank" : "Src Rank", peer, kMaxDeviceIndex));
    if (trace_.world_size > 0 && peer >= trace_.world_size)
      throw InputError(fmt::format("{}: event {}: \"{}\" {} is no rank of the job (distributedInfo: world_size {}, "
                                   "ranks 0 to {}); the trace is edited or corrupt",
                                   name_, event_index_, send ? "Dst Rank" : "Src Rank", peer, trace_.world_size,
                                   trace_.world_size - 1));
    const std::uint16_t own = gpu(device), other = gpu(static_cast<int>(peer));
    // The peer's name and this rank's own GPU's coincide where the trace does not say which rank
    // it is (rank 1 on its device 0 sending to rank 0): no placement can tell them apart.
    if ((other == own && (trace_.rank < 0 || trace_.world_size < 2)) || trace_.rank == static_cast<int>(peer)) {
      op.kind = OpKind::kernel;
      push(op);
      ++unplaced_p2p_;
      return true;
    }
    op.src = send ? own : other;
    op.dst = send ? other : own;
    op.flags |= kPeerByRank;
    op.comm = trace_.comms.intern(e.group_name.empty() ? std::string("default_pg") : "pg:" + std::string(e.group_name));
    push(op);
    ++placed_p2p_;
    return true;
  }

  /// The ranks of a group whose trace gives its "Group size" (2 or more) but no "Process Group
  /// Ranks": from its "Global rank start" and "Global rank stride" where given; else ranks 0..n-1
  /// where the group is the job's world (as large as distributedInfo's world_size), or where the
  /// trace gives no world_size (said: a guess); none (empty) for another group, which cannot be
  /// placed.
  std::vector<int> unlisted_group(const Event& e, int size) {
    if (const auto start_stride = rank_start_and_stride(e)) return strided_group(*start_stride, size);
    if (trace_.world_size > 0 && size != trace_.world_size) return {};
    if (trace_.world_size <= 0) ++guessed_groups_;
    return strided_group({0, 1}, size);
  }

  /// The event's "Global rank start" and "Global rank stride" where both are given and valid.
  std::optional<std::pair<int, int>> rank_start_and_stride(const Event& e) const {
    const double start = e.rank_start, stride = e.rank_stride;
    if (!std::isfinite(start) || !std::isfinite(stride) || start < 0 || stride < 1 || start != std::floor(start) ||
        stride != std::floor(stride) || start > kMaxDeviceIndex || stride > kMaxDeviceIndex)
      return std::nullopt;
    return std::pair{static_cast<int>(start), static_cast<int>(stride)};
  }

  /// Ranks start, start + stride, ... (`size` of them); refused past the job's ranks or the
  /// largest rank placed.
  std::vector<int> strided_group(std::pair<int, int> start_stride, int size) {
    const auto [start, stride] = start_stride;
    const double last = start + static_cast<double>(stride) * (size - 1);
    if (trace_.world_size > 0 && last >= trace_.world_size)
      throw InputError(fmt::format("{}: event {}: a group of {} ranks from \"Global rank start\" {} by \"Global "
                                   "rank stride\" {} reaches rank {}, past the job's (distributedInfo: world_size "
                                   "{}); the trace is edited or corrupt",
                                   name_, event_index_, size, start, stride, last, trace_.world_size));
    if (last > kMaxDeviceIndex)
      throw InputError(fmt::format("{}: event {}: a group of {} ranks from rank {} by {} reaches rank {}, more than "
                                   "linkcast places on a node (ranks 0 to {})",
                                   name_, event_index_, size, start, stride, last, kMaxDeviceIndex));
    std::vector<int> group;
    for (int k = 0; k < size; ++k) group.push_back(start + stride * k);
    return group;
  }

  /// The whole group PyTorch listed cut short (`shown`: the ranks before the '...';
  /// `last_listed`: the one after it, in the newer form). With "Global rank start" and "Global rank
  /// stride": the ranks they give, where the listed ranks agree. Else the listed ranks, then those
  /// between the last before the '...' and the last listed, evenly spaced (the newer form), or the
  /// ranks after the largest listed one in order (the older form, "[0, 1, ..., 29, ...]": the whole
  /// group where it is ranks 0..n-1, as a job's world group is), up to the event's "Group size".
  /// Without a "Group size" past the listed ranks the rest of the group is unknown: refused.
  std::vector<int> whole_cut_short_group(const Event& e, const std::vector<int>& shown, std::optional<int> last_listed) {
    const double size = e.group_size;
    const std::size_t listed = shown.size() + (last_listed ? 1 : 0);
    if (!std::isfinite(size) || size <= 0)
      throw InputError(fmt::format("{}: event {}: \"Process Group Ranks\" is cut short ('...', as PyTorch lists a "
                                   "group of more than 30 ranks) and no \"Group size\" says how many ranks follow; "
                                   "record with a PyTorch that writes \"Group size\" (2.1 and later)",
                                   name_, event_index_));
    if (size != std::floor(size) || size <= static_cast<double>(listed) || size > kMaxDeviceIndex + 1)
      throw InputError(fmt::format("{}: event {}: \"Process Group Ranks\" is cut short ('...') after {} ranks, but "
                                   "its \"Group size\" {} is no whole number of more ranks (at most {}); the trace "
                                   "is edited or corrupt",
                                   name_, event_index_, listed, size, kMaxDeviceIndex + 1));
    const int n = static_cast<int>(size);
    std::vector<int> group;
    if (const auto start_stride = rank_start_and_stride(e)) {
      group = strided_group(*start_stride, n);
      // What the list shows must be what the group is.
      if (!std::equal(shown.begin(), shown.end(), group.begin()) || (last_listed && group.back() != *last_listed))
        throw InputError(fmt::format("{}: event {}: \"Process Group Ranks\" (cut short) disagrees with the group its "
                                     "\"Global rank start\" {} and \"Global rank stride\" {} give; the trace is "
                                     "edited or corrupt",
                                     name_, event_index_, e.rank_start, e.rank_stride));
    } else if (last_listed) {
      // Newer form: the ranks between the last before the '...' and the last listed are evenly
      // spaced (a group of ranks start + k * stride, as PyTorch's subgroups by rank stride are).
      const int before = shown.empty() ? -1 : shown.back();
      const int unlisted = n - static_cast<int>(shown.size());  // the ones after the shown, the last included
      const int span = *last_listed - before;
      if (span <= 0 || span % unlisted != 0)
        throw InputError(fmt::format("{}: event {}: \"Process Group Ranks\" is cut short ('...') before its last rank "
                                     "{}, and its \"Group size\" {} leaves {} ranks after rank {} that no even "
                                     "spacing reaches; the ranks cut cannot be told: record with a PyTorch that "
                                     "writes \"Global rank start\" and \"Global rank stride\", or edit the list",
                                     name_, event_index_, *last_listed, n, unlisted, before));
      group = shown;
      for (int k = 1; k <= unlisted; ++k) group.push_back(before + k * (span / unlisted));
    } else {
      // Older form: on from the largest rank listed.
      const int largest = shown.empty() ? -1 : *std::max_element(shown.begin(), shown.end());
      const int last = largest + n - static_cast<int>(shown.size());
      if (last > kMaxDeviceIndex)
        throw InputError(fmt::format("{}: event {}: \"Group size\" {} after the ranks listed up to {} reaches rank {}, "
                                     "more than linkcast places on a node (ranks 0 to {})",
                                     name_, event_index_, n, largest, last, kMaxDeviceIndex));
      group = shown;
      for (int v = largest + 1; v <= last; ++v) group.push_back(v);
    }
    std::vector<bool> seen(kMaxDeviceIndex + 1);
    for (const int r : group) {
      if (seen[static_cast<std::size_t>(r)])
        throw InputError(fmt::format("{}: event {}: \"Process Group Ranks\" (cut short) and its \"Group size\" {} "
                                     "name rank {} twice once the ranks cut are filled in; the trace is edited or "
                                     "corrupt",
                                     name_, event_index_, n, r));
      seen[static_cast<std::size_t>(r)] = true;
    }
    ++cut_short_groups_;
    return group;
  }

  void finish() {
    link_launches();
    add_operator_bytes();
    mark_fresh_destinations();
    trace_.order_by_start();  // launch links follow their records
    trace_.warn_repeated_transfers(name_);
    warn();
  }

  /// Links each GPU operation to the runtime call of its correlation id (the first such call, where
  /// a hostile trace repeats one). A sorted list rather than a hash map: a long trace has millions
  /// of runtime calls, and the map's lookups, nodes and their freeing took 5% of reading 7.6 GB.
  void link_launches() {
    std::sort(runtime_correlation_.begin(), runtime_correlation_.end());  // by id, then record
    for (const auto& [record, k] : gpu_correlation_) {
      const auto it = std::lower_bound(runtime_correlation_.begin(), runtime_correlation_.end(),
                                       std::pair<std::uint64_t, std::size_t>{k, 0});
      if (it != runtime_correlation_.end() && it->first == k) trace_.set_launch(record, static_cast<std::uint32_t>(it->second));
    }
  }

  /// Each kernel's input_bytes: the tensors of the CPU operator of its External id (the first
  /// such operator, where a hostile trace repeats an id).
  void add_operator_bytes() {
    if (operator_bytes_.empty() || kernel_operator_.empty()) return;
    std::stable_sort(operator_bytes_.begin(), operator_bytes_.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [id, info] : kernel_operator_) {
      const auto it = std::lower_bound(operator_bytes_.begin(), operator_bytes_.end(), id,
                                       [](const auto& entry, std::uint32_t k) { return entry.first < k; });
      if (it != operator_bytes_.end() && it->first == id) trace_.kernel_info(info).input_bytes = it->second;
    }
    operator_bytes_ = {};
    kernel_operator_ = {};
  }

  /// A pageable copy whose launching call ran inside aten::_to_copy on the same thread writes
  /// into the tensor that operator allocated.
  void mark_fresh_destinations() {
    for (auto& [thread, spans] : to_copy_spans_)
      std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.begin_us < b.begin_us; });
    const auto& kinds = trace_.kinds();
    for (std::size_t i = 0; i < trace_.size(); ++i) {
      const std::uint32_t launch = trace_.launches()[i];
      if (kinds[i] != OpKind::copy || launch == kNoIndex) continue;
      const MemKind dst_mem = trace_.dst_mems()[i];
      const bool pageable_dst = dst_mem == MemKind::pageable || (trace_.dsts()[i] == host_ && dst_mem == MemKind::unknown);
      if (!pageable_dst) continue;
      const auto it = to_copy_spans_.find(trace_.threads()[launch]);
      if (it == to_copy_spans_.end()) continue;
      const double t = static_cast<double>(trace_.starts()[launch]) / 1000.0;
      const auto& spans = it->second;
      auto s = std::upper_bound(spans.begin(), spans.end(), t, [](double v, const Span& sp) { return v < sp.begin_us; });
      // The innermost enclosing span starts at or before t; spans of one thread nest.
      while (s != spans.begin()) {
        --s;
        if (s->end_us >= t) {
          trace_.add_flags(i, kFreshDestination);
          break;
        }
        if (t - s->begin_us > 60e6) break;  // no operator runs a minute
      }
    }
  }

  /// A warning "FILE: COUNT ..." where `count` is more than 0: `text` formats this file's name,
  /// the count, then `args`.
  template <typename... Args>
  void say(std::size_t count, fmt::format_string<const std::string&, std::size_t, Args...> text, const Args&... args) {
    if (count > 0) trace_.warnings.push_back(fmt::vformat(fmt::string_view(text), fmt::make_format_args(name_, count, args...)));
  }

  void warn() {
    say(unknown_host_memory_,
        "{}: {} copies between the host and a GPU say neither pinned nor pageable host memory (the first: \"{}\", "
        "as ROCm's profiler writes them): taken as pinned; pageable ones run slower, and a projection scored "
        "against a trace that names its kinds matches them as pinned", unknown_host_memory_name_);
    say(non_finite_events_,
        "{}: {} events carry bare non-finite numbers (inf, nan: not JSON; PyTorch 1.8's profiler wrote them for the "
        "bandwidth of a copy of no duration): read as null");
    say(invalid_utf8_events_,
        "{}: {} events hold bytes that are no UTF-8 (libkineto writes thread and process names as the system gives "
        "them, and Linux cuts a thread name at 15 bytes, through a character where it must): read with U+FFFD in "
        "their place");
    say(skipped_, "{}: skipped {} copy events of unrecognised kind");
    say(group_size_mismatches_,
        "{}: {} NCCL kernels give a \"Group size\" other than the number of ranks their \"Process Group Ranks\" "
        "lists: the listed ranks are taken; the trace is edited or corrupt");
    say(in_out_mismatches_,
        "{}: {} allreduce kernels give an \"In msg nelems\" other than their \"Out msg nelems\" (an allreduce's "
        "input and output hold the same elements): their size is taken from \"In msg nelems\"; the trace is corrupt");
    say(negative_durations_, "{}: {} events end before they start (a negative \"dur\"): read as taking 0 ns; the "
                             "trace is corrupt");
    for (const std::string& d : unknown_dtypes_)
      trace_.warnings.push_back(fmt::format("{}: unknown dtype '{}' in NCCL events; counted 1 byte per element", name_, d));
    say(untyped_collectives_,
        "{}: {} NCCL kernels give their size in elements but no \"dtype\": counted 1 byte per element (a float "
        "is 4): their bytes may be a fraction of what moved; the trace is edited or cut");
    say(uneven_alltoalls_,
        "{}: {} all-to-all kernels split their data unevenly among the ranks (\"In split size\" or \"Out split "
        "size\" lists sizes that differ): linkcast spreads each one's bytes evenly over its peers, so its "
        "per-pair traffic (matrix, links) and time are those of an even all-to-all of the same size");
    say(rootless_collectives_,
        "{}: {} NCCL broadcast and reduce kernels: PyTorch's profiler records no root, so each is taken as rooted "
        "at its group's first rank; which pairs carry its data (matrix, links) follows that guess");
    say(cut_short_groups_,
        "{}: {} NCCL kernels list their group's ranks cut short (PyTorch's profiler keeps the first 30 of a longer "
        "list, or the first 29 and the last): taken as their \"Global rank start\" and \"Global rank stride\" "
        "give them where the trace has those, else as the ranks listed, then the next ones up to their \"Group "
        "size\" (evenly spaced up to the last where it is listed)");
    say(guessed_groups_,
        "{}: {} NCCL kernels give their group's size alone (no \"Process Group Ranks\", as older PyTorch releases "
        "wrote them) and the trace no distributedInfo world_size: each group is taken as ranks 0 to its size - 1, "
        "which is right for a job's world group and wrong for a subgroup; where it is a subgroup, record with a "
        "newer PyTorch");
    say(unplaceable_subgroups_,
        "{}: {} NCCL collectives of a group other than the job's world ({} ranks) name neither its ranks (\"Process "
        "Group Ranks\") nor where they start (\"Global rank start\"): their members cannot be told, so they are "
        "kept as kernels of their recorded duration (their transfers in no matrix); record with a newer PyTorch", trace_.world_size);
    say(unsized_collectives_,
        "{}: {} NCCL kernels carry no message size ({}): their bytes are 0 and only their recorded durations count",
        record_shapes_ ? "the file says record_shapes, so the operators that launched them (record_param_comms, "
                         "matched by \"External id\") are not in it: a trace cut or filtered after recording"
                       : "recorded without record_shapes=True, or by a PyTorch older than 1.13");
    say(ungrouped_collectives_,
        "{}: {} NCCL collectives carry neither \"Process Group Ranks\" nor \"Group size\": kept as kernels of their "
        "recorded duration (their transfers cannot be modelled)");
    say(unknown_collectives_,
        "{}: {} NCCL kernels name no collective (generic kernels without a \"Collective name\" arg): kept as "
        "kernels of their recorded duration");
    say(p2p_kernels_,
        "{}: {} NCCL send/recv kernels without a \"Dst Rank\" / \"Src Rank\" (PyTorch writes them since its "
        "collective metadata names the peer; this one did not): kept as kernels of their recorded duration, their "
        "bytes in no matrix");
    say(unplaced_p2p_,
        "{}: {} NCCL send/recv kernels name their own rank as the peer, or a peer whose GPU name is this trace's "
        "own device while the trace has named no rank and job size of its own before its events (distributedInfo "
        "absent, or written after traceEvents): kept as kernels of their recorded duration; pass every rank's "
        "trace of the job as PyTorch writes it");
    if (unsized_copies_ + unsized_memsets_ > 0)
      trace_.warnings.push_back(fmt::format(
          "{}: {} copies and {} memsets carry no \"bytes\" arg (recorded by a profiler that did not write "
          "it): they count as 0 B, only their recorded durations are kept",
          name_, unsized_copies_, unsized_memsets_));
    say(untimed_gpu_work_,
        "{}: {} GPU operations (kernels, copies, memsets) have no usable \"ts\" (missing, null, not a number): "
        "left out, their bytes and time not counted");
    bool gpu_work = false, moves = false;
    for (std::size_t i = 0; i < trace_.size(); ++i) {
      gpu_work = gpu_work || runs_on_gpu(trace_.kinds()[i]);
      moves = moves || moves_data(trace_.kinds()[i]);
    }
    if (gpu_work && !moves)
      trace_.warnings.push_back(fmt::format(
          "{}: GPU kernels but no copies, memsets or collectives: its data movement is empty (the application "
          "replay still has its kernels)",
          name_));
    if (!gpu_work && mtia_events_ > 0)
      trace_.warnings.push_back(fmt::format(
          "{}: no GPU activity (kernels, copies, memsets) in this trace; its {} device events are a Meta MTIA "
          "accelerator's (categories mtia_*), which linkcast does not read: it models NVIDIA (CUDA) and AMD (ROCm) "
          "GPUs",
          name_, mtia_events_));
    else if (!gpu_work && profiler_range_events_ > 0)
      trace_.warnings.push_back(fmt::format(
          "{}: no GPU activity (kernels, copies, memsets) in this trace; its {} kernels are CUPTI range-profiler "
          "records (category cuda_profiler_range: kernels replayed to count hardware metrics, their times not "
          "their run times), which linkcast does not read; profile without the profiler's metrics "
          "(experimental_config) for kernel times",
          name_, profiler_range_events_));
    else if (!gpu_work && untimed_gpu_work_ == 0)
      trace_.warnings.push_back(fmt::format(
          "{}: no GPU activity (kernels, copies, memsets) in this trace: record with "
          "torch.profiler.profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA])",
          name_));
  }

  Trace& trace_;
  bool array_form_ = false;     // the file is a list of events, not an object holding "traceEvents"
  std::size_t chrome_events_ = 0;  // elements of the list that are events (objects with a "ph")
  std::string name_;
  simdjson::dom::parser parser_;
  EventHead head_;
  std::size_t event_index_ = 0;
  std::size_t rows_reserved_ = 0;
  std::vector<std::uint16_t> gpu_ids_;
  std::uint16_t host_ = kNoEndpoint;
  std::vector<std::pair<std::size_t, std::uint64_t>> gpu_correlation_;
  std::vector<std::pair<std::uint32_t, float>> operator_bytes_;           // (External id, input bytes)
  std::vector<std::pair<std::uint32_t, std::uint32_t>> kernel_operator_;  // (External id, kernel info)
  std::vector<std::pair<std::uint64_t, std::size_t>> runtime_correlation_;  // (correlation id, record)
  std::unordered_map<std::uint32_t, std::vector<Span>> to_copy_spans_;
  std::set<std::string> unknown_dtypes_;
  std::size_t negative_durations_ = 0;  // events whose dur is negative, read as 0
  std::size_t group_size_mismatches_ = 0;  // NCCL kernels whose "Group size" is not their ranks' count
  std::size_t untyped_collectives_ = 0;    // NCCL kernels with a size in elements but no dtype
  std::size_t rootless_collectives_ = 0;   // NCCL broadcasts and reduces (Kineto records no root)
  std::size_t uneven_alltoalls_ = 0;       // NCCL all-to-alls whose split sizes differ
  std::size_t cut_short_groups_ = 0;       // NCCL kernels whose rank list PyTorch cut short ("...")
  std::size_t in_out_mismatches_ = 0;     // allreduce kernels whose In and Out msg nelems differ
  bool record_shapes_ = false;  // the file's top-level "record_shapes" says shapes were recorded
  std::size_t mtia_events_ = 0;  // events of a Meta MTIA device (categories mtia_*), not read
  std::size_t profiler_range_events_ = 0;  // CUPTI range-profiler kernel records (cuda_profiler_range), not read
  std::size_t placed_p2p_ = 0, unplaced_p2p_ = 0;  // sends/recvs placed by their peer's rank; not placeable
  std::size_t guessed_groups_ = 0;         // groups of "Group size" alone taken as ranks 0..n-1 (no world_size)
  std::size_t unplaceable_subgroups_ = 0;  // groups of "Group size" alone smaller than the job: kept as kernels
  std::size_t skipped_ = 0, unsized_collectives_ = 0, ungrouped_collectives_ = 0, p2p_kernels_ = 0, unknown_collectives_ = 0,
              unsized_copies_ = 0, unsized_memsets_ = 0, non_finite_events_ = 0, unknown_host_memory_ = 0, untimed_gpu_work_ = 0,
              invalid_utf8_events_ = 0;
  std::string unknown_host_memory_name_;  // the first such copy's name
};

Trace read_from(Source& source, const std::string& name) {
  Trace trace;
  trace.format = "kineto";
  trace.source_file = name;
  Reader reader(trace, name);
  Window window(source);
  reader.read(window);
  return trace;
}

}  // namespace

Trace read_kineto(const std::string& path) {
  FileSource source(path);
  return read_from(source, path);
}

Trace parse_kineto(const std::string& text, const std::string& name) {
  StringSource source(text);
  return read_from(source, name);
}

}  // namespace linkcast::trace
