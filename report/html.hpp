// Pieces for writing the HTML report by hand: escaping, numbers for people (cell text) and for
// machines (titles, data attributes, sort keys), and tables whose rows are capped with an
// "N more ..." line so that a page about ten million operations stays small.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace linkcast::report {

/// Escapes & < > " ' so that `text` is safe as element text and as a quoted attribute value.
std::string escape(std::string_view text);

/// `v` rounded to the nearest whole number when it is one up to floating-point noise (a relative
/// 1e-9: byte counts summed by the simulator), else `v`.
double tidy(double v);

/// The shortest text that reads back as `tidy(v)` ("286720", "0.0123"); "0" for NaN.
std::string exact(double v);

/// "12.3%" of a fraction (0.123).
std::string percent(double fraction, int decimals = 1);

/// One table cell: what is shown, the key the inline script sorts by (numbers: exact value),
/// and an optional hover text.
struct Cell {
  std::string text;
  std::string sort;
  std::string title;
};
Cell text_cell(std::string text, std::string title = "");
/// "40 KiB", sorted by and titled with the exact byte count.
Cell bytes_cell(double bytes);
/// A plain count with thousands separators ("1,024"), sorted by the value.
Cell count_cell(std::uint64_t count);
/// "1.79 us", titled with the exact nanoseconds.
Cell time_cell(double ns);
/// "12.3%" of a fraction.
Cell percent_cell(double fraction);
/// Any number shown with `text`, sorted by `v`.
Cell number_cell(double v, std::string text);

/// Bytes in binary units as `linkcast matrix` prints them: exact when whole ("40 KiB"), else to
/// two decimals ("270.02 MiB").
std::string human_bytes(double bytes);

/// "1,234,567".
std::string thousands(std::uint64_t v);

/// An HTML table with a header, rows, an optional totals row and an optional "N more ..." row.
/// Numeric columns are right-aligned; every header sorts its column (inline script).
class HtmlTable {
 public:
  struct Column {
    Column(std::string header_text, bool is_numeric = false, std::string hover = "")
        : header(std::move(header_text)), numeric(is_numeric), title(std::move(hover)) {}
    std::string header;
    bool numeric = false;
    std::string title;  // hover text of the header
  };
  explicit HtmlTable(std::vector<Column> columns, std::string id = "");

  void add_row(std::vector<Cell> cells, std::string row_class = "");
  /// Shown after the rows, spanning every column, e.g. "12 more objects: 3.4 MB in 120 transfers".
  void set_more(std::string text) { more_ = std::move(text); }
  /// A totals row under the body.
  void set_footer(std::vector<Cell> cells) { footer_ = std::move(cells); }
  void set_caption(std::string caption) { caption_ = std::move(caption); }
  std::size_t rows() const { return rows_.size(); }
  std::string render() const;

 private:
  std::vector<Column> columns_;
  std::string id_;
  std::string caption_;
  std::vector<std::pair<std::string, std::vector<Cell>>> rows_;  // class, cells
  std::vector<Cell> footer_;
  std::string more_;
};

}  // namespace linkcast::report
