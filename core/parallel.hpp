// Work split into chunks run on the machine's cores. The chunks depend only on the amount of
// work, never on the number of threads, so that results combined chunk by chunk in order are the
// same on every machine (floating-point sums included).
#pragma once

#include <cstddef>
#include <functional>

namespace linkcast {

/// Threads parallel_chunks runs on: the machine's hardware threads, or 1 on a thread that a
/// SerialWorker marks (already one of several workers: no threads within threads).
[[nodiscard]] std::size_t worker_threads();

/// Marks the calling thread, while it lives, as one of several workers (a sweep's): parallel_chunks
/// then runs its chunks in it, one after another.
class SerialWorker {
 public:
  SerialWorker();
  ~SerialWorker();
  SerialWorker(const SerialWorker&) = delete;
  SerialWorker& operator=(const SerialWorker&) = delete;

 private:
  bool was_serial_;
};

/// Calls fn(chunk, begin, end) for each chunk [chunk x chunk_size, min(n, (chunk + 1) x chunk_size))
/// of [0, n) (chunk_size > 0), on up to worker_threads() threads. Where calls throw, no further
/// chunk starts, and the exception of the lowest such chunk is rethrown once every thread stopped.
void parallel_chunks(std::size_t n, std::size_t chunk_size,
                     const std::function<void(std::size_t chunk, std::size_t begin, std::size_t end)>& fn);

/// The number of chunks parallel_chunks makes of n items.
[[nodiscard]] inline std::size_t chunk_count(std::size_t n, std::size_t chunk_size) {
  return (n + chunk_size - 1) / chunk_size;
}

}  // namespace linkcast
