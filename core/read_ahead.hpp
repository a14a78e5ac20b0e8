// Reading a stream in large blocks on a second thread while the caller works on the block before:
// a gzip'd trace then reads at the pace of the slower of zlib and the parser rather than of the
// two one after the other (issue 17: 100 ms against zlib's 51 for 49 MB of CSV, one thread).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace linkcast {

class ReadAhead {
 public:
  /// Copies up to `room` bytes of the stream to `into`; returns how many, 0 at its end. Runs on the
  /// second thread; what it throws comes out of the caller's next() for that block.
  using Fill = std::function<std::size_t(char* into, std::size_t room)>;

  /// A block: `size` bytes at `data`, with `headroom` writable bytes before them (the caller may
  /// put what it kept of the block before there) and `slack` readable bytes after them. size 0:
  /// the stream's end.
  struct Block {
    char* data = nullptr;
    std::size_t size = 0;
  };

  /// Starts reading blocks of up to `block_bytes` into `buffers` (at least 2) buffers, each with
  /// `headroom` bytes before and `slack` after. Small blocks in several buffers keep the two
  /// threads busy to the end: the caller waits only for the first block and the second thread
  /// only when the caller is `buffers - 1` blocks behind.
  ReadAhead(std::size_t block_bytes, std::size_t headroom, std::size_t slack, Fill fill, std::size_t buffers = 2);
  /// Stops the second thread (it finishes the fill it is in) and waits for it.
  ~ReadAhead();
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  /// The next block; the one returned before is given back to be filled again. Rethrows what the
  /// fill threw instead of returning the block it was filling.
  [[nodiscard]] Block next();

 private:
  struct Buffer {
    std::vector<char> bytes;
    std::size_t size = 0;
    bool filled = false;
  };
  void run();

  Fill fill_;
  std::size_t block_;
  std::size_t headroom_;
  std::vector<Buffer> buffers_;  // filled in turn while the caller reads the one before
  std::size_t next_to_read_ = 0;
  bool holding_ = false;         // the caller holds buffers_[next_to_read_ - 1]
  bool stop_ = false;
  bool ended_ = false;           // the fill returned 0 or threw: nothing more comes
  std::exception_ptr error_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::thread thread_;
};

}  // namespace linkcast
