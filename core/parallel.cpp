#include "core/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

namespace linkcast {

namespace {
thread_local bool serial_worker = false;
}

std::size_t worker_threads() {
  if (serial_worker) return 1;
  return std::max(1u, std::thread::hardware_concurrency());
}

SerialWorker::SerialWorker() : was_serial_(serial_worker) { serial_worker = true; }

SerialWorker::~SerialWorker() { serial_worker = was_serial_; }

void parallel_chunks(std::size_t n, std::size_t chunk_size,
                     const std::function<void(std::size_t, std::size_t, std::size_t)>& fn) {
  if (chunk_size == 0) throw std::invalid_argument("parallel_chunks: chunk_size must be > 0");
  const std::size_t chunks = chunk_count(n, chunk_size);
  const std::size_t threads = std::min(worker_threads(), chunks);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::size_t failed_chunk = std::numeric_limits<std::size_t>::max();
  std::exception_ptr error;
  auto work = [&] {
    // The chunks of this thread see no threads of their own.
    const SerialWorker serial;
    for (std::size_t k = next++; k < chunks && !failed; k = next++) {
      try {
        fn(k, k * chunk_size, std::min(n, (k + 1) * chunk_size));
      } catch (...) {
        const std::lock_guard<std::mutex> lock(mutex);
        failed = true;
        if (k < failed_chunk) {
          failed_chunk = k;
          error = std::current_exception();
        }
      }
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < threads; ++t) {
    // A thread the system refuses leaves its chunks to the others (this one at least).
    try {
      pool.emplace_back(work);
    } catch (const std::system_error&) {
      break;
    }
  }
  work();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace linkcast
