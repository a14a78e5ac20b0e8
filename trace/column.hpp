// A column of the trace that most recordings leave at one value (a CSV of copies names no object,
// communicator, kernel or launching call): it holds nothing until a row differs from that value,
// then every row. A plain copy trace so keeps 35 of the 72 bytes an operation the full table
// takes (issue 17: memory per operation).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace linkcast::trace {

template <class T>
class SparseColumn {
 public:
  explicit SparseColumn(T fill) : fill_(fill) {}

  /// Row i's value (i below the trace's size).
  T operator[](std::size_t i) const { return values_.empty() ? fill_ : values_[i]; }
  /// Appends row `rows` (the rows so far) with value v.
  [[gnu::always_inline]] void push(T v, std::size_t rows) {
    if (values_.empty()) {
      if (v == fill_) return;
      hold_rows(rows);
    }
    values_.push_back(v);
  }
  /// Sets row i (below `rows`, the rows so far).
  void set(std::size_t i, T v, std::size_t rows) {
    if (values_.empty()) {
      if (v == fill_) return;
      values_.assign(rows, fill_);
    }
    values_[i] = v;
  }
  /// Room for n rows once a row differs (nothing is taken while none does).
  void reserve(std::size_t n) {
    reserved_ = n;
    if (!values_.empty()) values_.reserve(n);
  }
  void clear() {
    values_.clear();
    reserved_ = 0;
  }
  /// Frees the room reserved beyond the rows held.
  void shrink_to_fit() {
    values_.shrink_to_fit();
    reserved_ = values_.size();
  }
  /// Keeps the rows whose flag is set, in order (`keep` has one flag per row).
  template <class Keep>
  void keep_if(const Keep& keep) {
    if (values_.empty()) return;
    std::size_t k = 0;
    for (std::size_t i = 0; i < values_.size(); ++i)
      if (keep(i)) values_[k++] = values_[i];
    values_.resize(k);
    values_.shrink_to_fit();
  }
  /// Row k becomes what row order[k] was (`order` a permutation of the rows); memory beyond the
  /// column's: one copy of it while it is rebuilt.
  void permute(const std::vector<std::uint32_t>& order) {
    if (values_.empty()) return;
    std::vector<T> out;
    out.reserve(order.size());
    for (std::uint32_t i : order) out.push_back(values_[i]);
    values_.swap(out);
  }
  /// Every value v with v != fill becomes map(v) (the fill stays).
  template <class Map>
  void map_values(const Map& map) {
    for (T& v : values_)
      if (v != fill_) v = map(v);
  }
  /// Back to all rows at the fill value.
  void reset() {
    std::vector<T>().swap(values_);
    reserved_ = 0;
  }
  /// Whether v is the value every row holds until one differs.
  bool is_fill(T v) const { return v == fill_; }
  /// Whether every row so far holds the fill value.
  bool uniform() const { return values_.empty(); }
  std::size_t capacity_bytes() const { return values_.capacity() * sizeof(T); }

 private:
  std::vector<T> values_;
  /// The first row that differs: every row so far, at the fill value (out of line: a column
  /// comes here once, and the push above stays small enough to inline).
  [[gnu::noinline]] void hold_rows(std::size_t rows) {
    values_.reserve(std::max(rows + 1, reserved_));
    values_.assign(rows, fill_);
  }

  T fill_;
  std::size_t reserved_ = 0;
};

}  // namespace linkcast::trace
