// JSON text for output files. nlohmann::json throws on a string that is not valid UTF-8 (a name
// read from a database or a hand-edited file) and silently writes `null` for a number that is not
// finite. Every writer of linkcast's JSON goes through dump_json: bad bytes become U+FFFD, and a
// non-finite number is refused with a message naming the output and where in it the number is.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace linkcast {

/// Where in `j` the first number that is not finite is ("links[2].utilisation"), or nullopt.
template <class Json>
[[nodiscard]] std::optional<std::string> non_finite_at(const Json& j, const std::string& path = {}) {
  if (j.is_number_float()) {
    const double v = j.template get<double>();
    if (!std::isfinite(v)) return path.empty() ? std::string("(the value)") : path;
    return std::nullopt;
  }
  if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i)
      if (auto at = non_finite_at(j[i], fmt::format("{}[{}]", path, i))) return at;
  } else if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      if (auto at = non_finite_at(it.value(), path.empty() ? it.key() : path + "." + it.key())) return at;
  }
  return std::nullopt;
}

/// `j` as JSON text (indent < 0: one line). Invalid UTF-8 in strings is replaced by U+FFFD; a
/// number that is not finite throws InputError naming `what` (the output) and its place.
template <class Json>
[[nodiscard]] std::string dump_json(const Json& j, int indent, std::string_view what) {
  if (const auto at = non_finite_at(j)) {
    throw InputError(fmt::format("{}: {} is not a finite number (JSON has no infinity or NaN); an input value "
                                 "makes it overflow: check the node's and the study's values",
                                 what, *at));
  }
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

/// One number for JSON text written by hand (streamed outputs).
[[nodiscard]] inline std::string json_number(double v, std::string_view what) {
  if (!std::isfinite(v)) {
    throw InputError(fmt::format("{}: {} is not a finite number (JSON has no infinity or NaN); an input value "
                                 "makes it overflow: check the node's and the study's values",
                                 what, v));
  }
  return nlohmann::json(v).dump();
}

/// One string for JSON text written by hand, quoted and escaped; invalid UTF-8 becomes U+FFFD.
[[nodiscard]] inline std::string json_string(std::string_view s) {
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace linkcast
