#include "report/html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "core/units.hpp"
#include "core/utf8.hpp"

namespace linkcast::report {

std::string escape(std::string_view text) {
  if (invalid_utf8_at(text)) return escape(valid_utf8(text));  // a name read from a trace may hold any bytes
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

double tidy(double v) {
  const double r = std::round(v);
  return std::fabs(v - r) <= 1e-9 * std::max(1.0, std::fabs(v)) ? r : v;
}

std::string exact(double v) {
  if (!std::isfinite(v)) return "0";
  v = tidy(v);
  if (v == std::floor(v) && std::fabs(v) < 9.0e15) return fmt::format("{:.0f}", v);
  return fmt::format("{}", v);
}

std::string percent(double fraction, int decimals) {
  return fmt::format("{:.{}f}%", 100.0 * fraction, decimals);
}

std::string thousands(std::uint64_t v) {
  std::string digits = std::to_string(v);
  std::string out;
  const std::size_t n = digits.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (i > 0 && (n - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string human_bytes(double bytes) { return format_bytes_binary(tidy(bytes)); }

Cell text_cell(std::string text, std::string title) {
  return {std::move(text), "", std::move(title)};
}

Cell bytes_cell(double bytes) {
  bytes = tidy(bytes);
  return {human_bytes(bytes), exact(bytes), exact(bytes) + " B"};
}

Cell count_cell(std::uint64_t count) {
  return {thousands(count), std::to_string(count), ""};
}

Cell time_cell(double ns) {
  return {format_duration_ns(ns), exact(ns), exact(ns) + " ns"};
}

Cell percent_cell(double fraction) {
  return {percent(fraction), exact(fraction), ""};
}

Cell number_cell(double v, std::string text) {
  return {std::move(text), exact(v), ""};
}

HtmlTable::HtmlTable(std::vector<Column> columns, std::string id) : columns_(std::move(columns)), id_(std::move(id)) {}

void HtmlTable::add_row(std::vector<Cell> cells, std::string row_class) {
  cells.resize(columns_.size());
  rows_.emplace_back(std::move(row_class), std::move(cells));
}

namespace {

void render_cell(std::string& out, const char* tag, const Cell& cell, bool numeric) {
  out += '<';
  out += tag;
  if (numeric) out += " class=\"n\"";
  if (!cell.sort.empty()) fmt::format_to(std::back_inserter(out), " data-sort=\"{}\"", escape(cell.sort));
  if (!cell.title.empty()) fmt::format_to(std::back_inserter(out), " title=\"{}\"", escape(cell.title));
  out += '>';
  out += escape(cell.text);
  out += "</";
  out += tag;
  out += '>';
}

}  // namespace

std::string HtmlTable::render() const {
  std::string out = "<table class=\"data sortable\"";
  if (!id_.empty()) fmt::format_to(std::back_inserter(out), " id=\"{}\"", escape(id_));
  out += ">";
  if (!caption_.empty()) fmt::format_to(std::back_inserter(out), "<caption>{}</caption>", escape(caption_));
  out += "<thead><tr>";
  for (const Column& c : columns_) {
    out += c.numeric ? "<th class=\"n\"" : "<th";
    if (!c.title.empty()) fmt::format_to(std::back_inserter(out), " title=\"{}\"", escape(c.title));
    out += '>';
    out += escape(c.header);
    out += "</th>";
  }
  out += "</tr></thead><tbody>";
  for (const auto& [cls, cells] : rows_) {
    out += cls.empty() ? "<tr>" : fmt::format("<tr class=\"{}\">", escape(cls));
    for (std::size_t c = 0; c < cells.size(); ++c) render_cell(out, "td", cells[c], columns_[c].numeric);
    out += "</tr>";
  }
  out += "</tbody>";
  if (!footer_.empty() || !more_.empty()) {
    out += "<tfoot>";
    if (!more_.empty())
      fmt::format_to(std::back_inserter(out), "<tr class=\"more\"><td colspan=\"{}\">{}</td></tr>", columns_.size(),
                     escape(more_));
    if (!footer_.empty()) {
      out += "<tr class=\"total\">";
      for (std::size_t c = 0; c < columns_.size(); ++c)
        render_cell(out, "td", c < footer_.size() ? footer_[c] : Cell{}, columns_[c].numeric);
      out += "</tr>";
    }
    out += "</tfoot>";
  }
  out += "</table>";
  return out;
}

}  // namespace linkcast::report
