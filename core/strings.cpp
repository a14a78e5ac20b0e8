#include "core/strings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace linkcast {

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string to_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.starts_with(prefix); }

std::string unknown_name(std::string_view what, std::string_view name, const std::vector<std::string>& valid) {
  return fmt::format("unknown {} '{}'{}; valid {}s: {}", what, name, did_you_mean(name, valid), what, join(valid, ", "));
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string nearest(std::string_view key, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = 0;
  for (const std::string& c : candidates) {
    const std::size_t d = edit_distance(to_lower(key), to_lower(c));
    if (best.empty() || d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  // Close enough to be a typo: at most a third of the longer word, and at least one letter.
  const std::size_t limit = std::max<std::size_t>(2, std::max(key.size(), best.size()) / 3);
  if (best.empty() || best_distance > limit) return "";
  return best;
}

std::string did_you_mean(std::string_view key, const std::vector<std::string>& candidates) {
  const std::string n = nearest(key, candidates);
  return n.empty() ? std::string() : fmt::format(" (did you mean '{}'?)", n);
}

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

std::string join_or(const std::vector<std::string>& items) {
  if (items.size() <= 1) return join(items, "");
  std::vector<std::string> head(items.begin(), items.end() - 1);
  return join(head, ", ") + " or " + items.back();
}

std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace linkcast
