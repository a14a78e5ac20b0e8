// Plain-text tables for the CLI's `--format table` output: columns padded to their widest cell,
// numbers right-aligned.
#pragma once

#include <string>
#include <vector>

namespace linkcast {

class TextTable {
 public:
  enum class Align { left, right };

  explicit TextTable(std::vector<std::string> header, std::vector<Align> align = {});
  void add_row(std::vector<std::string> cells);
  /// A horizontal rule between row groups.
  void add_rule();
  std::string render() const;
  std::size_t rows() const { return rows_.size(); }

 private:
  std::vector<std::string> header_;
  std::vector<Align> align_;
  std::vector<std::vector<std::string>> rows_;  // an empty row is a rule
};

}  // namespace linkcast
