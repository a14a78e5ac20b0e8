#include "core/table.hpp"

#include <algorithm>

namespace linkcast {

TextTable::TextTable(std::vector<std::string> header, std::vector<Align> align)
    : header_(std::move(header)), align_(std::move(align)) {
  // Unless told otherwise, the first column is a label (left) and the rest are numbers (right).
  if (align_.empty() && !header_.empty()) align_.push_back(Align::left);
  align_.resize(header_.size(), Align::right);
}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(header_.size());
  rows_.push_back(std::move(cells));
}

void TextTable::add_rule() { rows_.emplace_back(); }

std::string TextTable::render() const {
  std::vector<std::size_t> width(header_.size(), 0);
  for (std::size_t c = 0; c < header_.size(); ++c) width[c] = header_[c].size();
  for (const auto& row : rows_)
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());

  auto render_row = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t c = 0; c < header_.size(); ++c) {
      const std::string& cell = row[c];
      const std::size_t pad = width[c] - cell.size();
      if (c) line += "  ";
      if (align_[c] == Align::right) line.append(pad, ' ');
      line += cell;
      if (align_[c] == Align::left && c + 1 < header_.size()) line.append(pad, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return line + "\n";
  };
  std::size_t total = 0;
  for (std::size_t c = 0; c < width.size(); ++c) total += width[c] + (c ? 2 : 0);
  std::string out = render_row(header_);
  out += std::string(total, '-') + "\n";
  for (const auto& row : rows_) out += row.empty() ? std::string(total, '-') + "\n" : render_row(row);
  return out;
}

}  // namespace linkcast
