#pragma once
// YAML documents (node files, study files) as a small tree whose every node knows its line and
// column, read with libyaml (Debian libyaml-dev), the reference C parser of the YAML 1.1 spec.
// It replaced yaml-cpp here because it is about ten times faster on our largest node file
// (configs/gb200-nvl72.yaml: 0.5 ms against 5 ms to parse) and the loaders need nothing but the
// tree and the positions.
//
// Scalars are kept as text; the readers decide what a value must be and say so when it is not.
// Plain `~`, `null` and empty values are null, as in YAML's core schema. Anchors and aliases are
// resolved (an alias is a copy of the anchored node). Only the first document of a stream is read.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace linkcast::yaml {

class Node {
 public:
  enum class Type { null, scalar, sequence, map };

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::null; }
  bool is_scalar() const { return type_ == Type::scalar; }
  bool is_sequence() const { return type_ == Type::sequence; }
  bool is_map() const { return type_ == Type::map; }

  /// 1-based position of the node's first character in its file.
  int line() const { return line_; }
  int column() const { return column_; }

  /// The text of a scalar ("" for a null).
  const std::string& scalar() const { return text_; }

  /// Elements of a sequence, or entries of a map.
  std::size_t size() const { return type_ == Type::map ? children_.size() / 2 : children_.size(); }
  /// The i-th element of a sequence.
  const Node& operator[](std::size_t i) const { return children_[i]; }
  /// The i-th key and value of a map, in file order.
  const Node& key(std::size_t i) const { return children_[2 * i]; }
  const Node& value(std::size_t i) const { return children_[2 * i + 1]; }
  /// The value of the first entry whose key is `key`, or nullptr (also when this is not a map).
  const Node* find(std::string_view key) const;
  /// The same as a reference: an absent key gives an undefined node, which converts to false.
  const Node& operator[](std::string_view key) const;
  /// False only for the node that stands for an absent key.
  explicit operator bool() const { return defined_; }

 private:
  friend class Builder;
  Type type_ = Type::null;
  bool defined_ = true;
  int line_ = 0;
  int column_ = 0;
  std::string text_;
  std::vector<Node> children_;  // a map holds key, value, key, value, ...
};

/// Parses `text`; `file` names it in errors. Throws InputError
/// "FILE:LINE:COLUMN: YAML syntax error: WHAT (WHILE ... at line L, column C)".
/// An empty stream gives a null node.
Node parse(std::string_view text, const std::string& file);

/// Checks a parsed document against a schema, turning every problem into an InputError that
/// names `file:line:column` of the offending node.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  const std::string& file() const { return file_; }

  [[noreturn]] void fail(const Node& at, const std::string& message) const;

  /// `node` must be a map whose keys are all in `allowed`, each once; an unknown key's error
  /// suggests the nearest valid one.
  void expect_map(const Node& node, const std::string& what, const std::vector<std::string>& allowed) const;

  /// The value of `key` in `map`, or an error naming `what` and the missing key.
  const Node& require(const Node& map, const std::string& key, const std::string& what) const;

  /// A scalar's text, or an error "WHAT must be a single value".
  std::string string(const Node& value, const std::string& what) const;

 private:
  std::string file_;
};

}  // namespace linkcast::yaml
