#pragma once
// Node and study files are read with yaml-cpp (Debian libyaml-cpp-dev): YAML::Node is the tree and
// Mark() gives every node's line and column. This layer holds only what the loaders need on top of
// it: parsing with every problem turned into an InputError "file:line:column: ..." (in the wording
// of libyaml, which earlier versions used, so messages stay what users and tests know), limits
// against hostile documents, and the checks every schema shares.
//
// Scalars are kept as text; the readers decide what a value must be and say so when it is not.
// Plain `~`, `null` and empty values are null, as in YAML's core schema. An alias is the anchored
// node itself (yaml-cpp shares it), so it reports the anchor's position. Only the first document of
// a stream is read.

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace linkcast::yaml {

/// Nesting deeper than this is refused (the node and study schemas nest four levels).
inline constexpr int kMaxDepth = 200;
/// A document whose aliases expand it past this many nodes is refused ("billion laughs"); the
/// largest shipped node file has about 2,500.
inline constexpr std::size_t kMaxExpandedNodes = 1'000'000;

/// 1-based line and column of a node's first character (0 when the node has no position).
[[nodiscard]] int line(const YAML::Node& node);
[[nodiscard]] int column(const YAML::Node& node);

/// Parses the first document of `text`; `file` names it in errors. Throws InputError
/// "FILE:LINE:COLUMN: YAML syntax error: WHAT (WHILE at line L, column C)" for malformed YAML,
/// "FILE: YAML syntax error: WHAT at byte N; ..." for bytes that are not UTF-8 text, and a
/// message naming the limit for documents nested deeper than kMaxDepth or expanding past
/// kMaxExpandedNodes. An empty stream gives a null node.
[[nodiscard]] YAML::Node parse(std::string_view text, const std::string& file);

/// The value of the first entry whose key is the scalar `key`; nullopt when there is none or
/// `map` is not a map.
[[nodiscard]] std::optional<YAML::Node> find(const YAML::Node& map, std::string_view key);

/// A mapping checked against its allowed keys: its values by key, each read once.
class Map {
 public:
  /// The value of `key` (which must be one of the allowed keys), or nullopt when absent.
  [[nodiscard]] const YAML::Node* find(std::string_view key) const;
  [[nodiscard]] bool has(std::string_view key) const { return find(key) != nullptr; }
  /// The mapping itself, for positions.
  [[nodiscard]] const YAML::Node& node() const { return node_; }

 private:
  friend class Reader;
  YAML::Node node_;
  std::vector<std::pair<std::string_view, YAML::Node>> entries_;  // in file order
};

/// Checks a parsed document against a schema, turning every problem into an InputError that
/// names `file:line:column` of the offending node.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[nodiscard]] const std::string& file() const { return file_; }

  [[noreturn]] void fail(const YAML::Node& at, const std::string& message) const;

  /// `node` must be a map whose keys are all in `allowed`, each once; an unknown key's error
  /// suggests the nearest valid one. The keys of the result are views into `allowed`.
  [[nodiscard]] Map expect_map(const YAML::Node& node, const std::string& what,
                               const std::vector<std::string>& allowed) const;

  /// The value of `key` in `map`, or an error naming `what` and the missing key.
  [[nodiscard]] const YAML::Node& require(const Map& map, std::string_view key, const std::string& what) const;
  [[nodiscard]] YAML::Node require(const YAML::Node& map, std::string_view key, const std::string& what) const;

  /// A scalar's text, or an error "WHAT must be a single value".
  [[nodiscard]] std::string string(const YAML::Node& value, const std::string& what) const;
  /// true/yes or false/no (any case), or an error "WHAT must be true or false".
  [[nodiscard]] bool boolean(const YAML::Node& value, const std::string& what) const;

 private:
  std::string file_;
};

}  // namespace linkcast::yaml
