#include "core/read_ahead.hpp"

#include <algorithm>
#include <utility>

namespace linkcast {

ReadAhead::ReadAhead(std::size_t block_bytes, std::size_t headroom, std::size_t slack, Fill fill, std::size_t buffers)
    : fill_(std::move(fill)), block_(block_bytes), headroom_(headroom), buffers_(std::max<std::size_t>(buffers, 2)) {
  for (Buffer& b : buffers_) b.bytes.resize(headroom + block_bytes + slack);
  thread_ = std::thread([this] { run(); });
}

ReadAhead::~ReadAhead() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void ReadAhead::run() {
  for (std::size_t i = 0;; i = (i + 1) % buffers_.size()) {
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return stop_ || !buffers_[i].filled; });
      if (stop_) return;
    }
    // The caller does not touch a buffer that is not filled: this one is the second thread's
    // until it is marked filled.
    Buffer& b = buffers_[i];
    std::size_t size = 0;
    try {
      while (size < block_) {
        const std::size_t got = fill_(b.bytes.data() + headroom_ + size, block_ - size);
        if (got == 0) break;
        size += got;
      }
    } catch (...) {
      std::lock_guard lock(mutex_);
      error_ = std::current_exception();
      ended_ = true;
      changed_.notify_all();
      return;
    }
    std::lock_guard lock(mutex_);
    b.size = size;
    b.filled = true;
    ended_ = size == 0;
    changed_.notify_all();
    if (ended_) return;
  }
}

ReadAhead::Block ReadAhead::next() {
  std::unique_lock lock(mutex_);
  if (holding_) {
    buffers_[(next_to_read_ + buffers_.size() - 1) % buffers_.size()].filled = false;
    holding_ = false;
    changed_.notify_all();
  }
  Buffer& b = buffers_[next_to_read_];
  changed_.wait(lock, [&] { return b.filled || ended_; });
  if (!b.filled) {
    if (error_) std::rethrow_exception(error_);
    return {};  // asked again after the end
  }
  holding_ = true;
  next_to_read_ = (next_to_read_ + 1) % buffers_.size();
  return {b.bytes.data() + headroom_, b.size};
}

}  // namespace linkcast
