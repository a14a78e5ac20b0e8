// The discrete-event loop over tasks with dependencies.
//
// A task is one transfer (a flow over a route of the FlowNetwork) or a pure delay. It starts when
// every task it depends on has ended, no earlier than its release time and, when it belongs to a
// pool (a GPU's copy engines), once a slot of the pool is free (first come, first served). It
// then spends `fixed_ns` (L + O: launch, first-byte latency) before any data moves, then moves its
// bytes as a flow, sharing the links with every other flow moving at the same time. The loop
// jumps to the next flow completion or timer, whichever is earlier.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <queue>
#include <span>
#include <unordered_map>
#include <vector>

#include "sim/network.hpp"

namespace linkcast::sim {

using TaskId = std::uint32_t;
using PoolId = std::uint32_t;
inline constexpr PoolId kNoPool = std::numeric_limits<PoolId>::max();

/// When one task ran (24 bytes: kept for every task after the run). Times in ns from the
/// simulation's start; data starts to move at start_ns + the task's fixed_ns.
struct TaskTiming {
  double ready_ns = 0;   // dependencies done and released (before the run: the release time)
  double start_ns = -1;  // slot acquired; L + O begins
  double end_ns = -1;
};

class Engine {
 public:
  explicit Engine(FlowNetwork& net) : net_(&net) {}

  /// A transfer of `bytes` (>= 0; 0 is a pure latency) over `route`, weights per hop (empty: 1),
  /// data rate at most `cap_gbps`, `fixed_ns` before data moves.
  TaskId add_transfer(RouteId route, double bytes, std::span<const double> weights, double cap_gbps,
                      double fixed_ns);
  /// A task that only takes time (a kernel launch, NCCL's per-call latency, a join with 0).
  TaskId add_delay(double ns);
  /// Room for `tasks` tasks, so that adding them never copies the lot (nor, at its peak, holds
  /// the old copy beside twice the room).
  void reserve(std::size_t tasks);
  /// `after` starts only once `before` has ended.
  void depend(TaskId after, TaskId before);
  void set_release(TaskId t, double release_ns) { timings_[t].ready_ns = release_ns; }
  /// A pool of `slots` (> 0) that tasks hold from their start to their end.
  PoolId add_pool(int slots);
  void set_pool(TaskId t, PoolId pool) { tasks_[t].pool = pool; }

  /// Runs every task to its end. Throws std::logic_error when dependencies form a cycle.
  /// `progress`, where set, is told the tasks ended so far (of size()) every 2^18 events. Afterwards only the
  /// timings, the dependencies and the counts are kept (the tasks' own data is released).
  void run(const std::function<void(std::uint64_t)>& progress = {});

  std::size_t size() const { return task_count_; }
  /// After run(): the chain of tasks that decided when `last` ended, last first. Each task's
  /// predecessor is the dependency that ended last before it; the chain stops at a task that
  /// nothing before it held back (its release, its pool or the start held it).
  [[nodiscard]] std::vector<TaskId> critical_path(TaskId last) const;
  const TaskTiming& timing(TaskId t) const { return timings_[t]; }
  double makespan_ns() const { return makespan_ns_; }
  /// Flow completions plus timers handled (benchmarks report events per second).
  std::uint64_t events() const { return events_; }

 private:
  struct Task {  // 40 bytes: one or more per operation of a trace (its release is in timings_)
    RouteId route = 0;
    std::uint32_t weights_at = 0;
    PoolId pool = kNoPool;
    std::uint16_t weights_count = 0;  // 0: unit weights; a route has far fewer hops
    bool is_flow = false;
    double bytes = 0;
    double cap = kNoCap;
    double fixed_ns = 0;
  };
  enum class Phase : std::uint8_t { ready, start, data, end };
  struct Timer {
    double t;
    std::uint64_t seq;
    TaskId task;
    Phase phase;
    bool operator>(const Timer& o) const { return t > o.t || (t == o.t && seq > o.seq); }
  };
  struct Pool {
    int free = 0;
    std::vector<TaskId> waiting;  // FIFO
    std::size_t head = 0;
  };

  void schedule(double t, TaskId task, Phase phase) { timers_.push({t, seq_++, task, phase}); }
  /// Work due now, handled in order by drain() (no recursion through long zero-time chains).
  void now_do(TaskId task, Phase phase) { immediate_.push_back({task, phase}); }
  void drain();
  void on_ready(TaskId t);
  void on_start(TaskId t);
  void on_data(TaskId t);
  void on_end(TaskId t);

  /// Where `weights` are in weights_: an identical span added before is shared (a route's weights
  /// repeat for every transfer of its copy class), else they are appended.
  std::uint32_t intern_weights(std::span<const double> weights);

  FlowNetwork* net_;
  std::size_t task_count_ = 0;
  std::vector<Task> tasks_;
  std::vector<double> weights_;
  std::unordered_multimap<std::uint64_t, std::uint32_t> weights_by_hash_;  // -> offset in weights_
  // (before, after); turned into succ_ by run(). In blocks: their number is known only then.
  std::deque<std::pair<TaskId, TaskId>> edges_;
  std::vector<Pool> pools_;

  std::vector<TaskTiming> timings_;  // by task, from its adding: its release until it is ready
  // Run state.
  std::vector<std::uint32_t> succ_at_;  // CSR of successors (kept: critical_path reads it)
  std::vector<TaskId> succ_;
  std::vector<std::uint32_t> waiting_on_;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers_;
  std::vector<std::pair<TaskId, Phase>> immediate_;
  std::uint64_t seq_ = 0;
  std::uint64_t events_ = 0;
  std::uint64_t ended_ = 0;
  double makespan_ns_ = 0;
};

}  // namespace linkcast::sim
