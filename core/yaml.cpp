#include "core/yaml.hpp"

#include <unordered_set>

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <sstream>

#include "core/error.hpp"
#include "core/strings.hpp"

namespace linkcast::yaml {

int line(const YAML::Node& node) { return node.Mark().line + 1; }
int column(const YAML::Node& node) { return node.Mark().column + 1; }

namespace {

// --- bytes that are not text -------------------------------------------------------------------

struct ReaderProblem {
  const char* problem;
  std::size_t offset;
};

/// libyaml's reader rules (reader.c), which node and study files have always been held to:
/// UTF-8 without overlong forms or surrogates, and only printable characters (tab and line
/// breaks allowed). yaml-cpp reads whatever bytes it is given.
std::optional<ReaderProblem> check_text(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t pos = 0;
  if (n >= 2 && ((s[0] == 0xFE && s[1] == 0xFF) || (s[0] == 0xFF && s[1] == 0xFE))) return std::nullopt;  // UTF-16
  if (n >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF) pos = 3;  // UTF-8 byte order mark
  while (pos < n) {
    const unsigned char octet = s[pos];
    if (octet < 0x80) {
      if (octet < 0x20 ? octet != 0x09 && octet != 0x0A && octet != 0x0D : octet == 0x7F)
        return ReaderProblem{"control characters are not allowed", pos};
      ++pos;
      continue;
    }
    const std::size_t width = (octet & 0xE0) == 0xC0 ? 2 : (octet & 0xF0) == 0xE0 ? 3 : (octet & 0xF8) == 0xF0 ? 4 : 0;
    if (width == 0) return ReaderProblem{"invalid leading UTF-8 octet", pos};
    if (width > n - pos) return ReaderProblem{"incomplete UTF-8 octet sequence", pos};
    std::uint32_t value = octet & (width == 2 ? 0x1Fu : width == 3 ? 0x0Fu : 0x07u);
    for (std::size_t k = 1; k < width; ++k) {
      const unsigned char trailing = s[pos + k];
      if ((trailing & 0xC0) != 0x80) return ReaderProblem{"invalid trailing UTF-8 octet", pos + k};
      value = (value << 6) + (trailing & 0x3Fu);
    }
    if ((width == 2 && value < 0x80) || (width == 3 && value < 0x800) || (width == 4 && value < 0x10000))
      return ReaderProblem{"invalid length of a UTF-8 sequence", pos};
    if ((value >= 0xD800 && value <= 0xDFFF) || value > 0x10FFFF) return ReaderProblem{"invalid Unicode character", pos};
    const bool printable = value == 0x85 || (value >= 0xA0 && value <= 0xD7FF) || (value >= 0xE000 && value <= 0xFFFD) ||
                           value >= 0x10000;
    if (!printable) return ReaderProblem{"control characters are not allowed", pos};
    pos += width;
  }
  return std::nullopt;
}

// --- syntax errors -----------------------------------------------------------------------------

/// Replays a document that yaml-cpp refused, remembering the collections still open when it
/// stopped: libyaml named the innermost one in its messages ("while parsing a flow mapping at
/// ..."), and so do we.
class OpenCollections : public YAML::EventHandler {
 public:
  struct Open {
    YAML::Mark mark;
    bool map = false;
    bool flow = false;
  };
  std::vector<Open> open;
  std::optional<YAML::Mark> too_deep;  // the first node nested deeper than kMaxDepth

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { node(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value s) override {
    node(m);
    open.push_back({m, false, s == YAML::EmitterStyle::Flow});
  }
  void OnSequenceEnd() override { open.pop_back(); }
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value s) override {
    node(m);
    open.push_back({m, true, s == YAML::EmitterStyle::Flow});
  }
  void OnMapEnd() override { open.pop_back(); }

  void node(const YAML::Mark& m) {
    if (!too_deep && open.size() > static_cast<std::size_t>(kMaxDepth)) too_deep = m;
  }

  /// The innermost open collection of the kind asked for.
  [[nodiscard]] std::optional<YAML::Mark> innermost(bool map, bool flow) const {
    for (auto it = open.rbegin(); it != open.rend(); ++it)
      if (it->map == map && it->flow == flow) return it->mark;
    return std::nullopt;
  }
};

/// What libyaml said for each problem yaml-cpp reports, and which construct it named as open.
enum class Context : unsigned char { none, flow_map, flow_seq, block_map, block_seq, plain_scalar, here };
struct Wording {
  std::string_view yaml_cpp, libyaml;
  Context context;
};
const std::array kWordings = {
    Wording{YAML::ErrorMsg::END_OF_MAP_FLOW, "did not find expected ',' or '}'", Context::flow_map},
    Wording{YAML::ErrorMsg::END_OF_SEQ_FLOW, "did not find expected ',' or ']'", Context::flow_seq},
    Wording{YAML::ErrorMsg::END_OF_MAP, "did not find expected key", Context::block_map},
    Wording{YAML::ErrorMsg::END_OF_SEQ, "did not find expected '-' indicator", Context::block_seq},
    Wording{YAML::ErrorMsg::TAB_IN_INDENTATION, "found a tab character that violates indentation", Context::plain_scalar},
    Wording{YAML::ErrorMsg::MAP_VALUE, "mapping values are not allowed in this context", Context::none},
    Wording{YAML::ErrorMsg::MAP_KEY, "mapping keys are not allowed in this context", Context::none},
    Wording{YAML::ErrorMsg::BLOCK_ENTRY, "block sequence entries are not allowed in this context", Context::none},
    Wording{YAML::ErrorMsg::UNKNOWN_TOKEN, "found character that cannot start any token", Context::here},
    Wording{YAML::ErrorMsg::EOF_IN_SCALAR, "found unexpected end of stream", Context::none},
};

/// Where the plain scalar that holds the character before `mark` starts on its line: after the
/// last ": " or "- " indicator, else at the line's first non-blank character. (The scanner does not
/// report the start of a scalar it gave up on.)
std::optional<YAML::Mark> plain_scalar_start(std::string_view text, const YAML::Mark& mark) {
  if (mark.pos <= 0) return std::nullopt;
  std::size_t at = std::min(static_cast<std::size_t>(mark.pos), text.size());
  while (at > 0 && (text[at - 1] == ' ' || text[at - 1] == '\t' || text[at - 1] == '\n' || text[at - 1] == '\r')) --at;
  if (at == 0) return std::nullopt;
  const std::size_t line_start = text.rfind('\n', at - 1) == std::string_view::npos ? 0 : text.rfind('\n', at - 1) + 1;
  const std::string_view before = text.substr(line_start, at - line_start);
  std::size_t start = before.find_first_not_of(" \t");
  for (const std::string_view indicator : {": ", "- "}) {
    const std::size_t i = before.rfind(indicator);
    if (i != std::string_view::npos && i + 2 > start) start = before.find_first_not_of(" \t", i + 2);
  }
  if (start == std::string_view::npos) return std::nullopt;
  int line_no = 0;
  for (std::size_t i = 0; i < line_start; ++i) line_no += text[i] == '\n' ? 1 : 0;
  YAML::Mark m;
  m.pos = static_cast<int>(line_start + start);
  m.line = line_no;
  m.column = static_cast<int>(start);
  return m;
}

[[noreturn]] void syntax_error(std::string_view text, const std::string& file, const YAML::ParserException& e) {
  const YAML::Mark& mark = e.mark;
  auto at = [&](const YAML::Mark& m) {
    return m.is_null() ? file : location(file, m.line + 1, m.column + 1);
  };
  auto replay = [&] {
    OpenCollections events;
    std::istringstream in{std::string(text)};
    try {
      YAML::Parser parser(in);
      (void)parser.HandleNextDocument(events);
    } catch (const YAML::Exception&) {
      // the same error again: `events` holds what was open when it came
    }
    return events;
  };
  if (dynamic_cast<const YAML::DeepRecursion*>(&e) != nullptr) {
    // yaml-cpp stops far deeper than we do; name the first node past our limit, as the walk does.
    throw InputError(fmt::format("{}: YAML nested more than {} levels deep", at(replay().too_deep.value_or(mark)),
                                 kMaxDepth));
  }
  if (e.msg == YAML::ErrorMsg::UNKNOWN_ANCHOR && !mark.is_null()) {
    const std::string_view rest = text.substr(std::min(static_cast<std::size_t>(mark.pos) + 1, text.size()));
    const std::string_view name = rest.substr(0, rest.find_first_of(" \t\r\n,[]{}"));
    throw InputError(fmt::format("{}: alias '*{}' names no anchor defined before it", at(mark), name));
  }
  const auto wording = std::find_if(kWordings.begin(), kWordings.end(), [&](const Wording& w) { return e.msg == w.yaml_cpp; });
  if (wording == kWordings.end()) throw InputError(fmt::format("{}: YAML syntax error: {}", at(mark), e.msg));

  std::optional<YAML::Mark> open;
  std::string_view while_;
  if (wording->context == Context::plain_scalar) {
    open = plain_scalar_start(text, mark);
    while_ = "while scanning a plain scalar";
  } else if (wording->context == Context::here) {
    open = mark;
    while_ = "while scanning for the next token";
  } else if (wording->context != Context::none) {
    const OpenCollections events = replay();
    const bool map = wording->context == Context::flow_map || wording->context == Context::block_map;
    const bool flow = wording->context == Context::flow_map || wording->context == Context::flow_seq;
    open = events.innermost(map, flow);
    while_ = wording->context == Context::flow_map    ? "while parsing a flow mapping"
             : wording->context == Context::flow_seq  ? "while parsing a flow sequence"
             : wording->context == Context::block_map ? "while parsing a block mapping"
                                                      : "while parsing a block collection";
  }
  const std::string context =
      open ? fmt::format(" ({} at line {}, column {})", while_, open->line + 1, open->column + 1) : std::string();
  throw InputError(fmt::format("{}: YAML syntax error: {}{}", at(mark), wording->libyaml, context));
}

// --- limits ------------------------------------------------------------------------------------

/// Walks the document as its readers will see it, aliases expanded, and refuses it when it nests
/// deeper than kMaxDepth or holds more than kMaxExpandedNodes nodes. The walk stops at the first
/// node past either limit, so a "billion laughs" document costs at most kMaxExpandedNodes steps.
class Limits {
 public:
  explicit Limits(const std::string& file) : file_(file) {}

  /// The quoted scalar that starts last in the file, if any: the only one that can run to the end
  /// of the stream unclosed.
  [[nodiscard]] std::optional<YAML::Mark> last_quoted() const { return last_quoted_; }

  void walk(const YAML::Node& node, int depth) {
    if (depth > kMaxDepth)
      throw InputError(fmt::format("{}: YAML nested more than {} levels deep", where(node), kMaxDepth));
    if (++nodes_ > kMaxExpandedNodes) {
      throw InputError(fmt::format(
          "{}: the document holds more than {} YAML nodes once its aliases are expanded; a node or study file "
          "needs far fewer: give fewer values (a study's grid: at most a million points over all its axes), and "
          "write repeated values out instead of aliasing them over and over",
          where(node), kMaxExpandedNodes));
    }
    if (node.IsScalar()) {
      if (node.Tag() == "!" && (!last_quoted_ || node.Mark().pos > last_quoted_->pos)) last_quoted_ = node.Mark();
    } else if (node.IsSequence()) {
      for (const YAML::Node& child : node) walk(child, depth + 1);
    } else if (node.IsMap()) {
      for (const auto& kv : node) {
        walk(kv.first, depth + 1);
        walk(kv.second, depth + 1);
      }
    }
  }

 private:
  std::string where(const YAML::Node& node) const {
    return node.Mark().is_null() ? file_ : location(file_, line(node), column(node));
  }
  const std::string& file_;
  std::size_t nodes_ = 0;
  std::optional<YAML::Mark> last_quoted_;
};

/// yaml-cpp takes a quoted scalar left open at the end of the stream for a closed one; libyaml
/// (and we) refuse it. `start` is where a non-plain scalar starts.
void check_closed(std::string_view text, const YAML::Mark& start, const std::string& file) {
  const auto pos = static_cast<std::size_t>(start.pos);
  if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"')) return;
  const char quote = text[pos];
  for (std::size_t i = pos + 1; i < text.size(); ++i) {
    if (quote == '"' && text[i] == '\\') {
      ++i;
    } else if (text[i] == quote) {
      if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        ++i;  // '' is a quote inside a single-quoted scalar
        continue;
      }
      return;
    }
  }
  const std::size_t last_break = text.rfind('\n');
  const auto end_line = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
  const auto end_column = static_cast<int>(last_break == std::string_view::npos ? text.size() : text.size() - last_break - 1) + 1;
  throw InputError(fmt::format(
      "{}: YAML syntax error: found unexpected end of stream (while scanning a quoted scalar at line {}, column {})",
      location(file, end_line, end_column), start.line + 1, start.column + 1));
}

/// The events of one document: whether it holds anything but an empty (null) node, and where.
class DocumentContent : public YAML::EventHandler {
 public:
  std::optional<YAML::Mark> content;  // the first node that is not a lone null
  std::optional<YAML::Mark> null;     // a lone null's mark

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override {
    if (!null) null = m;
  }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { seen(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { seen(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    seen(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override { seen(m); }
  void OnMapEnd() override {}

 private:
  void seen(const YAML::Mark& m) {
    if (!content) content = m;
  }
};

/// The documents of `text`, read event by event: a file is one document, so a second one with
/// content (after `---`, two files joined) is refused, where YAML::Load would drop it unsaid. A
/// token yaml-cpp's parser cannot move past (a ',' or ']' outside any flow collection) makes it
/// return empty documents without end: YAML::LoadAll looped, its memory growing, on ", 5]" (a
/// hang the fuzzer found). A document that starts where the one before did is such a token: a
/// syntax error at it.
void check_documents(std::string_view text, const std::string& file) {
  std::istringstream in{std::string(text)};
  YAML::Parser parser(in);
  std::optional<int> last_start;
  for (int d = 0;; ++d) {
    DocumentContent doc;
    if (!parser.HandleNextDocument(doc)) return;
    const std::optional<YAML::Mark> start = doc.content ? doc.content : doc.null;
    if (d > 0 && doc.content)
      throw InputError(fmt::format("{}: a second YAML document (after `---`); a node or study file is one document: "
                                   "two files joined? Give them one by one",
                                   location(file, doc.content->line + 1, doc.content->column + 1)));
    if (start && last_start && start->pos == *last_start) {
      const auto at = static_cast<std::size_t>(start->pos);
      throw InputError(fmt::format("{}: YAML syntax error: found '{}' outside any flow list or map",
                                   location(file, start->line + 1, start->column + 1),
                                   at < text.size() ? text.substr(at, 1) : std::string_view("end of stream")));
    }
    if (start) last_start = start->pos;
  }
}

/// Expands YAML's merge keys (`<<: *base`, or `<<: [*a, *b]`), as PyYAML and libyaml-based tools
/// read them: the mapping takes every key of the merged mappings that it does not give itself
/// (the first listed mapping wins over later ones), and `<<` goes. A quoted or otherwise tagged
/// "<<" is an ordinary key; two merge keys in one mapping are a key given twice (refused, as
/// every other key given twice is). Runs after Limits, so the document is finite and its expansion
/// bounded; linear in the keys merged.
void merge_keys(YAML::Node node, const std::string& file) {
  if (node.IsSequence()) {
    for (YAML::Node child : node) merge_keys(child, file);
    return;
  }
  if (!node.IsMap()) return;
  std::vector<std::pair<YAML::Node, YAML::Node>> merges;  // each `<<` key and its value, in order
  for (auto kv : node) {
    const bool merge_key = kv.first.IsScalar() && kv.first.Scalar() == "<<" &&
                           (kv.first.Tag() == "?" || kv.first.Tag() == "tag:yaml.org,2002:merge");
    if (merge_key) merges.emplace_back(kv.first, kv.second);
    else merge_keys(kv.second, file);
  }
  if (merges.empty()) return;
  if (merges.size() > 1)
    throw InputError(fmt::format("{}: a mapping with two merge keys (`<<`), a key given twice; merge several "
                                 "mappings with one: `<<: [*a, *b]`",
                                 merges[1].first.Mark().is_null()
                                     ? file
                                     : location(file, line(merges[1].first), column(merges[1].first))));
  std::vector<YAML::Node> sources;
  for (const auto& [key, value] : merges) {
    if (value.IsSequence())
      for (YAML::Node m : value) sources.push_back(m);
    else sources.push_back(value);
  }
  for (const YAML::Node& m : sources)
    if (!m.IsMap())
      throw InputError(fmt::format("{}: a merge key's value (`<<`) must be a mapping or a list of mappings (an alias "
                                   "of one: `<<: *base`)",
                                   m.Mark().is_null() ? file : location(file, line(m), column(m))));
  for (const auto& [key, value] : merges) node.remove(key);  // the key node itself: a quoted "<<" stays
  std::unordered_set<std::string> keys;
  for (const auto& kv : node)
    if (kv.first.IsScalar()) keys.insert(kv.first.Scalar());
  for (YAML::Node m : sources) {
    merge_keys(m, file);
    for (const auto& kv : m)
      if (!kv.first.IsScalar() || keys.insert(kv.first.Scalar()).second) node.force_insert(kv.first, kv.second);
  }
}

}  // namespace

YAML::Node parse(std::string_view text, const std::string& file) {
  if (const auto bad = check_text(text)) {
    // Named by line and column (bytes from the line's start), as every other loader error is.
    const std::string_view before = text.substr(0, std::min(bad->offset, text.size()));
    const auto line = static_cast<int>(std::count(before.begin(), before.end(), '\n')) + 1;
    const std::size_t line_start = before.rfind('\n');
    const auto column =
        static_cast<int>(line_start == std::string_view::npos ? before.size() + 1 : before.size() - line_start);
    throw InputError(fmt::format("{}: YAML syntax error: {} (byte {}); node and study files are UTF-8 text",
                                 location(file, line, column), bad->problem, bad->offset));
  }
  YAML::Node root;
  try {
    check_documents(text, file);
    root = YAML::Load(std::string(text));
  } catch (const YAML::ParserException& e) {
    syntax_error(text, file, e);
  } catch (const YAML::Exception& e) {
    throw InputError(fmt::format("{}: YAML syntax error: {}",
                                 e.mark.is_null() ? file : location(file, e.mark.line + 1, e.mark.column + 1), e.msg));
  }
  Limits limits(file);
  limits.walk(root, 0);
  if (const auto quoted = limits.last_quoted()) check_closed(text, *quoted, file);
  merge_keys(root, file);
  return root;
}

std::optional<YAML::Node> find(const YAML::Node& map, std::string_view key) {
  if (!map.IsMap()) return std::nullopt;
  for (const auto& kv : map)
    if (kv.first.IsScalar() && kv.first.Scalar() == key) return kv.second;
  return std::nullopt;
}

const YAML::Node* Map::find(std::string_view key) const {
  for (const auto& [k, v] : entries_)
    if (k == key) return &v;
  return nullptr;
}

void Reader::fail(const YAML::Node& at, const std::string& message) const {
  if (at.Mark().is_null()) throw InputError(fmt::format("{}: {}", file_, message));
  throw InputError(fmt::format("{}: {}", location(file_, line(at), column(at)), message));
}

Map Reader::expect_map(const YAML::Node& node, const std::string& what, const std::vector<std::string>& allowed) const {
  if (!node.IsMap()) fail(node, fmt::format("{} must be a mapping (key: value)", what));
  Map map;
  map.node_ = node;
  map.entries_.reserve(node.size());
  for (const auto& kv : node) {
    const YAML::Node& k = kv.first;
    if (!k.IsScalar()) fail(k, fmt::format("{}: keys must be names, e.g. 'id'", what));
    const std::string& key = k.Scalar();
    const auto known = std::find(allowed.begin(), allowed.end(), key);
    if (known == allowed.end()) {
      fail(k, fmt::format("{}: unknown key '{}'{}; valid keys: {}", what, key, did_you_mean(key, allowed),
                          join(allowed, ", ")));
    }
    if (map.has(key)) fail(k, fmt::format("{}: duplicate key '{}'", what, key));
    map.entries_.emplace_back(*known, kv.second);
  }
  return map;
}

const YAML::Node& Reader::require(const Map& map, std::string_view key, const std::string& what) const {
  const YAML::Node* value = map.find(key);
  if (value == nullptr) fail(map.node(), fmt::format("{}: missing required key '{}'", what, key));
  return *value;
}

YAML::Node Reader::require(const YAML::Node& map, std::string_view key, const std::string& what) const {
  auto value = yaml::find(map, key);
  if (!value) fail(map, fmt::format("{}: missing required key '{}'", what, key));
  return *value;
}

std::string Reader::string(const YAML::Node& value, const std::string& what) const {
  if (!value.IsScalar()) fail(value, fmt::format("{} must be a single value", what));
  return value.Scalar();
}

bool Reader::boolean(const YAML::Node& value, const std::string& what) const {
  if (!value.IsScalar()) fail(value, fmt::format("{} must be true or false", what));
  const std::string s = to_lower(value.Scalar());
  if (s == "true" || s == "yes") return true;
  if (s == "false" || s == "no") return false;
  fail(value, fmt::format("{} must be true or false, got '{}'", what, value.Scalar()));
}

}  // namespace linkcast::yaml
