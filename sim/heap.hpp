// An indexed binary min-heap: items are small integer ids, each with a double key that can be
// changed or removed in O(log n). The event loop keeps flow finish times, route-class finish
// times and link fair shares in these.
//
// Several heaps may share one position table (`share_positions`) when every id is in at most
// one of them at a time: flows sit either in their route class's heap or in the capped-flow
// heap, so thousands of per-class heaps need no per-class table.
#pragma once

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace linkcast::sim {

class IndexedHeap {
 public:
  static constexpr std::uint32_t kAbsent = std::numeric_limits<std::uint32_t>::max();

  IndexedHeap() : pos_(&own_pos_) {}
  /// Uses `positions` (indexed by id, kAbsent where absent) instead of a table of its own.
  explicit IndexedHeap(std::vector<std::uint32_t>* positions) : pos_(positions) {}
  IndexedHeap(const IndexedHeap&) = delete;
  IndexedHeap& operator=(const IndexedHeap&) = delete;
  IndexedHeap(IndexedHeap&& o) noexcept
      : heap_(std::move(o.heap_)), own_pos_(std::move(o.own_pos_)),
        pos_(o.pos_ == &o.own_pos_ ? &own_pos_ : o.pos_) {}
  IndexedHeap& operator=(IndexedHeap&& o) noexcept {
    heap_ = std::move(o.heap_);
    own_pos_ = std::move(o.own_pos_);
    pos_ = o.pos_ == &o.own_pos_ ? &own_pos_ : o.pos_;
    return *this;
  }

  bool empty() const { return heap_.empty(); }
  std::size_t size() const { return heap_.size(); }
  /// With a shared table: whether `id` is in any of the heaps sharing it.
  bool contains(std::uint32_t id) const { return id < pos_->size() && (*pos_)[id] != kAbsent; }
  std::uint32_t top() const { return heap_.front().id; }
  double top_key() const { return heap_.front().key; }
  double key(std::uint32_t id) const { return heap_[(*pos_)[id]].key; }

  /// Inserts `id` or changes its key.
  void set(std::uint32_t id, double key) {
    if (id >= pos_->size()) pos_->resize(static_cast<std::size_t>(id) + 1, kAbsent);
    if ((*pos_)[id] == kAbsent) {
      (*pos_)[id] = static_cast<std::uint32_t>(heap_.size());
      heap_.push_back({key, id});
      up((*pos_)[id]);
      return;
    }
    const std::uint32_t i = (*pos_)[id];
    const double old = heap_[i].key;
    heap_[i].key = key;
    if (key < old) up(i);
    else down(i);
  }

  void erase(std::uint32_t id) {
    if (!contains(id)) return;
    const std::uint32_t i = (*pos_)[id];
    (*pos_)[id] = kAbsent;
    const Entry last = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;
    heap_[i] = last;
    (*pos_)[last.id] = i;
    up(i);
    down((*pos_)[last.id]);
  }

  std::uint32_t pop() {
    const std::uint32_t id = top();
    erase(id);
    return id;
  }

  /// Adds `delta` to every key (order is unchanged).
  void shift_keys(double delta) {
    for (Entry& e : heap_) e.key += delta;
  }

  void clear() {
    for (const Entry& e : heap_) (*pos_)[e.id] = kAbsent;
    heap_.clear();
  }

 private:
  struct Entry {
    double key;
    std::uint32_t id;
  };
  // Ties broken by id so that runs are deterministic.
  static bool less(const Entry& a, const Entry& b) {
    return a.key < b.key || (a.key == b.key && a.id < b.id);
  }
  void up(std::uint32_t i) {
    const Entry e = heap_[i];
    while (i > 0) {
      const std::uint32_t parent = (i - 1) / 2;
      if (!less(e, heap_[parent])) break;
      heap_[i] = heap_[parent];
      (*pos_)[heap_[i].id] = i;
      i = parent;
    }
    heap_[i] = e;
    (*pos_)[e.id] = i;
  }
  void down(std::uint32_t i) {
    const Entry e = heap_[i];
    const auto n = static_cast<std::uint32_t>(heap_.size());
    while (true) {
      std::uint32_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && less(heap_[child + 1], heap_[child])) ++child;
      if (!less(heap_[child], e)) break;
      heap_[i] = heap_[child];
      (*pos_)[heap_[i].id] = i;
      i = child;
    }
    heap_[i] = e;
    (*pos_)[e.id] = i;
  }

  std::vector<Entry> heap_;
  std::vector<std::uint32_t> own_pos_;
  std::vector<std::uint32_t>* pos_;
};

}  // namespace linkcast::sim
