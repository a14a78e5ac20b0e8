// Small string helpers shared by the readers, the YAML loader and the CLI.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace linkcast {

std::string_view trim(std::string_view s);
std::string to_lower(std::string_view s);
std::vector<std::string_view> split(std::string_view s, char sep);
bool starts_with(std::string_view s, std::string_view prefix);

/// Levenshtein edit distance, for "did you mean" suggestions.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `key` when it is close enough to be a likely typo, else "".
std::string nearest(std::string_view key, const std::vector<std::string>& candidates);

/// " (did you mean 'x'?)" or "" when nothing is close.
std::string did_you_mean(std::string_view key, const std::vector<std::string>& candidates);

/// "a, b or c".
std::string join_or(const std::vector<std::string>& items);
std::string join(const std::vector<std::string>& items, std::string_view sep);

/// One CSV field (RFC 4180): quoted, with inner quotes doubled, when it holds a comma, a quote or
/// a line break; as it is otherwise.
std::string csv_field(std::string_view s);

}  // namespace linkcast
