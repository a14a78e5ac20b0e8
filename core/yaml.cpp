#include "core/yaml.hpp"

#include <fmt/format.h>
#include <yaml.h>

#include <algorithm>
#include <set>
#include <unordered_map>

#include "core/error.hpp"
#include "core/strings.hpp"

namespace linkcast::yaml {

const Node* Node::find(std::string_view key) const {
  if (type_ != Type::map) return nullptr;
  for (std::size_t i = 0; i + 1 < children_.size(); i += 2)
    if (children_[i].type_ == Type::scalar && children_[i].text_ == key) return &children_[i + 1];
  return nullptr;
}

const Node& Node::operator[](std::string_view key) const {
  static const Node undefined = [] {
    Node n;
    n.defined_ = false;
    return n;
  }();
  const Node* found = find(key);
  return found != nullptr ? *found : undefined;
}

/// Builds the tree from libyaml's event stream by recursive descent (one call per node).
class Builder {
 public:
  Builder(std::string_view text, const std::string& file) : file_(file) {
    yaml_parser_initialize(&parser_);
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  }
  ~Builder() {
    if (have_event_) yaml_event_delete(&event_);
    yaml_parser_delete(&parser_);
  }
  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;

  Node document() {
    next();  // stream start
    next();
    if (event_.type == YAML_STREAM_END_EVENT) return Node{};  // no document at all
    next();  // the document's root node
    return node(0);
  }

 private:
  static constexpr int kMaxDepth = 200;

  void next() {
    if (have_event_) yaml_event_delete(&event_);
    have_event_ = false;
    if (!yaml_parser_parse(&parser_, &event_)) syntax_error();
    have_event_ = true;
  }

  [[noreturn]] void syntax_error() const {
    const char* problem = parser_.problem != nullptr ? parser_.problem : "cannot be parsed";
    std::string where;
    if (parser_.error == YAML_READER_ERROR) {
      // Not text libyaml can read (bad UTF-8, a control character): there is only a byte offset.
      throw InputError(fmt::format("{}: YAML syntax error: {} at byte {}; node and study files are UTF-8 text",
                                   file_, problem, parser_.problem_offset));
    }
    std::string context;
    if (parser_.context != nullptr) {
      context = fmt::format(" ({} at line {}, column {})", parser_.context, parser_.context_mark.line + 1,
                            parser_.context_mark.column + 1);
    }
    throw InputError(fmt::format("{}: YAML syntax error: {}{}",
                                 location(file_, static_cast<int>(parser_.problem_mark.line) + 1,
                                          static_cast<int>(parser_.problem_mark.column) + 1),
                                 problem, context));
  }

  [[noreturn]] void fail_here(const std::string& message) const {
    throw InputError(fmt::format("{}: {}",
                                 location(file_, static_cast<int>(event_.start_mark.line) + 1,
                                          static_cast<int>(event_.start_mark.column) + 1),
                                 message));
  }

  void remember(const yaml_char_t* anchor, const Node& n) {
    if (anchor != nullptr) anchors_[reinterpret_cast<const char*>(anchor)] = n;
  }

  /// The node that starts at the current event; leaves the current event on its last one.
  Node node(int depth) {
    if (depth > kMaxDepth) fail_here(fmt::format("YAML nested more than {} levels deep", kMaxDepth));
    Node n;
    n.line_ = static_cast<int>(event_.start_mark.line) + 1;
    n.column_ = static_cast<int>(event_.start_mark.column) + 1;
    switch (event_.type) {
      case YAML_ALIAS_EVENT: {
        const std::string name = reinterpret_cast<const char*>(event_.data.alias.anchor);
        const auto it = anchors_.find(name);
        if (it == anchors_.end()) fail_here(fmt::format("alias '*{}' names no anchor defined before it", name));
        Node copy = it->second;
        copy.line_ = n.line_;
        copy.column_ = n.column_;
        return copy;
      }
      case YAML_SCALAR_EVENT: {
        const auto& s = event_.data.scalar;
        n.text_.assign(reinterpret_cast<const char*>(s.value), s.length);
        const bool plain = s.style == YAML_PLAIN_SCALAR_STYLE && s.tag == nullptr;
        const bool null = plain && (n.text_.empty() || n.text_ == "~" || n.text_ == "null" || n.text_ == "Null" ||
                                    n.text_ == "NULL");
        n.type_ = null ? Node::Type::null : Node::Type::scalar;
        if (null) n.text_.clear();
        remember(s.anchor, n);
        return n;
      }
      case YAML_SEQUENCE_START_EVENT:
      case YAML_MAPPING_START_EVENT: {
        const bool map = event_.type == YAML_MAPPING_START_EVENT;
        const yaml_event_type_t end = map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT;
        std::string anchor;
        const yaml_char_t* a = map ? event_.data.mapping_start.anchor : event_.data.sequence_start.anchor;
        if (a != nullptr) anchor = reinterpret_cast<const char*>(a);
        n.type_ = map ? Node::Type::map : Node::Type::sequence;
        for (next(); event_.type != end; next()) n.children_.push_back(node(depth + 1));
        if (!anchor.empty()) anchors_[anchor] = n;
        return n;
      }
      default:
        fail_here("unexpected YAML event");  // libyaml only emits the events above here
    }
  }

  const std::string& file_;
  yaml_parser_t parser_{};
  yaml_event_t event_{};
  bool have_event_ = false;
  std::unordered_map<std::string, Node> anchors_;
};

Node parse(std::string_view text, const std::string& file) {
  Builder b(text, file);
  return b.document();
}

void Reader::fail(const Node& at, const std::string& message) const {
  if (at.line() <= 0) throw InputError(fmt::format("{}: {}", file_, message));
  throw InputError(fmt::format("{}: {}", location(file_, at.line(), at.column()), message));
}

void Reader::expect_map(const Node& node, const std::string& what, const std::vector<std::string>& allowed) const {
  if (!node.is_map()) fail(node, fmt::format("{} must be a mapping (key: value)", what));
  std::set<std::string> seen;
  for (std::size_t i = 0; i < node.size(); ++i) {
    const Node& k = node.key(i);
    if (!k.is_scalar()) fail(k, fmt::format("{}: keys must be names, e.g. 'id'", what));
    const std::string& key = k.scalar();
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      fail(k, fmt::format("{}: unknown key '{}'{}; valid keys: {}", what, key, did_you_mean(key, allowed),
                          join(allowed, ", ")));
    }
    if (!seen.insert(key).second) fail(k, fmt::format("{}: duplicate key '{}'", what, key));
  }
}

const Node& Reader::require(const Node& map, const std::string& key, const std::string& what) const {
  const Node* value = map.find(key);
  if (value == nullptr) fail(map, fmt::format("{}: missing required key '{}'", what, key));
  return *value;
}

std::string Reader::string(const Node& value, const std::string& what) const {
  if (!value.is_scalar()) fail(value, fmt::format("{} must be a single value", what));
  return value.scalar();
}

}  // namespace linkcast::yaml
