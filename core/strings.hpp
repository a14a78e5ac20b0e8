// Small string helpers shared by the readers, the YAML loader and the CLI.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace linkcast {

/// Whether c is white space: space, \t, \n, \v, \f or \r (isspace in the C locale), without a call.
[[nodiscard]] constexpr bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
/// s without the white space (is_space) at either end.
std::string_view trim(std::string_view s);
std::string to_lower(std::string_view s);
std::vector<std::string_view> split(std::string_view s, char sep);
/// std::string_view::starts_with, for callers not yet moved to it.
bool starts_with(std::string_view s, std::string_view prefix);

/// Levenshtein edit distance, for "did you mean" suggestions.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `key` when it is close enough to be a likely typo, else "".
[[nodiscard]] std::string nearest(std::string_view key, const std::vector<std::string>& candidates);

/// " (did you mean 'x'?)" or "" when nothing is close.
[[nodiscard]] std::string did_you_mean(std::string_view key, const std::vector<std::string>& candidates);

/// "unknown model 'x' (did you mean 'y'?); valid models: a, b": `name` is not one of `valid`
/// names of a `what`.
[[nodiscard]] std::string unknown_name(std::string_view what, std::string_view name,
                                       const std::vector<std::string>& valid);

/// The value of Enum whose name is `name` in `names` (the enum's names in its order), if any.
template <class Enum, std::size_t N>
[[nodiscard]] constexpr std::optional<Enum> enum_named(const std::array<std::string_view, N>& names,
                                                       std::string_view name) {
  for (std::size_t i = 0; i < N; ++i)
    if (names[i] == name) return static_cast<Enum>(i);
  return std::nullopt;
}

/// The `name` of every entry of a registry (models, solvers), in its order.
template <class Entries>
[[nodiscard]] std::vector<std::string> names_of(const Entries& entries) {
  std::vector<std::string> names;
  for (const auto& e : entries) names.emplace_back(e.name);
  return names;
}

/// "a, b or c".
std::string join_or(const std::vector<std::string>& items);
std::string join(const std::vector<std::string>& items, std::string_view sep);

/// One CSV field (RFC 4180): quoted, with inner quotes doubled, when it holds a comma, a quote or
/// a line break; as it is otherwise.
std::string csv_field(std::string_view s);

}  // namespace linkcast
