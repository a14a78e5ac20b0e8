// The discrete-event loop over tasks with dependencies.
//
// A task is one transfer (a flow over a route of the FlowNetwork) or a pure delay. It starts when
// every task it depends on has ended (or, for a dependency on a task's start, started), a lag
// later for the dependencies marked lagged, no earlier than its release time and, when it belongs
// to a pool (a GPU's copy engines), once a slot of the pool is free (first come, first served). It
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
using FlowSpecId = std::uint32_t;
inline constexpr FlowSpecId kNoFlowSpec = std::numeric_limits<FlowSpecId>::max();
inline constexpr PoolId kNoPool = std::numeric_limits<PoolId>::max();
/// Task ids leave two bits of a 32-bit word to say how a task waits for another (Engine::Wait).
inline constexpr std::size_t kMaxTasks = (std::size_t{1} << 30) - 1;

/// How a task waits for one it depends on: for its end (the default) or its start (a launch waits
/// for its runtime call to begin, a nested call for the call it runs inside), and whether the
/// waiting task's lag (Engine::set_lag) comes after it (a CPU gap before a call, a launch's
/// latency): an application replay so needs one task per call and per launched kernel rather than
/// three (issue 17: memory per operation).
struct Wait {
  bool on_start = false;
  bool lagged = false;
};

/// A task on the critical path and how the task after it on the path waited for it.
struct PathStep {
  TaskId task;
  Wait wait;        // the later task's wait on this one (default for the last task)
  double ready_ns;  // when the task became ready
};

/// When one task ran (its start and end are kept for every task after the run; its readiness
/// until release_run_data). Times in ns from the simulation's start; data starts to move at
/// start_ns + the task's fixed_ns.
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
  /// What transfers move their bytes over: `route`, weights per hop (empty: 1), data rate at most
  /// `cap_gbps`. Transfers priced alike share one (24 bytes, against one a transfer: issue 17).
  FlowSpecId add_flow_spec(RouteId route, std::span<const double> weights, double cap_gbps);
  /// A transfer of `bytes` > 0 as `spec` says, `fixed_ns` before data moves.
  TaskId add_transfer(FlowSpecId spec, double bytes, double fixed_ns);
  /// A task that only takes time (a kernel launch, NCCL's per-call latency, a join with 0).
  TaskId add_delay(double ns);
  /// Room for `tasks` tasks and `flow_specs` flow specs, so that adding them never copies the lot
  /// (nor, at its peak, holds the old copy beside twice the room, nor faults pages in twice: 10 M
  /// copies' specs, one each, grew to 402 MB through 780 MB of doublings). Room the specs do not
  /// use is given back when the run starts.
  void reserve(std::size_t tasks, std::size_t flow_specs);
  /// `after` starts only once `before` has ended.
  void depend(TaskId after, TaskId before) { edges_.emplace_back(before, after); }
  /// `after` starts only once `before` has ended or (wait.on_start) started, its lag later where
  /// wait.lagged.
  void depend(TaskId after, TaskId before, Wait wait) {
    edges_.emplace_back(before, after | (wait.on_start ? kOnStartBit : 0) | (wait.lagged ? kLaggedBit : 0));
  }
  /// The time `t` (a delay task) waits after each dependency marked lagged.
  void set_lag(TaskId t, double lag_ns);
  void set_release(TaskId t, double release_ns) { ready_ns_[t] = release_ns; }
  /// A pool of `slots` (> 0) that tasks hold from their start to their end.
  PoolId add_pool(int slots);
  void set_pool(TaskId t, PoolId pool) { tasks_[t].pool = pool; }

  /// Runs every task to its end. Throws std::logic_error when dependencies form a cycle.
  /// `progress`, where set, is told the tasks ended so far (of size()) every 2^18 events.
  void run(const std::function<void(std::uint64_t)>& progress = {});
  /// Whether run() notes what critical_path needs (4 bytes a task; on unless turned off).
  void note_critical_path(bool on) { note_critical_path_ = on; }
  /// After run() (and critical_path, where wanted): frees what critical_path reads, so that a long
  /// trace's results are gathered beside each task's start and end alone. timing()'s ready_ns is
  /// -1 after.
  void release_run_data();

  std::size_t size() const { return task_count_; }
  /// After run(): the chain of tasks that decided when `last` ended, last first. Each task's
  /// predecessor is the dependency that released it last (its end or start, plus the task's lag
  /// where the wait is lagged); the chain stops at a task that nothing before it held back (its
  /// release, its pool or the start held it).
  [[nodiscard]] std::vector<PathStep> critical_path(TaskId last) const;
  TaskTiming timing(TaskId t) const { return {ready_ns_.empty() ? -1.0 : ready_ns_[t], start_ns_[t], end_ns_[t]}; }
  double makespan_ns() const { return makespan_ns_; }
  /// Flow completions plus timers handled (benchmarks report events per second).
  std::uint64_t events() const { return events_; }

 private:
  static constexpr std::uint32_t kOnStartBit = std::uint32_t{1} << 31;
  static constexpr std::uint32_t kLaggedBit = std::uint32_t{1} << 30;
  static constexpr std::uint32_t kTaskBits = kLaggedBit - 1;

  static constexpr FlowSpecId kNoFlow = kNoFlowSpec;
  struct Task {  // 24 bytes: about one per operation of a trace (its release is in ready_ns_)
    double fixed_ns = 0;
    double bytes_or_lag = 0;  // a flow's bytes; a delay task's lag (ns, set_lag)
    PoolId pool = kNoPool;
    FlowSpecId flow = kNoFlow;  // into flows_: what a transfer that moves bytes moves them over
  };
  struct Flow {  // 24 bytes, shared by the transfers of one spec (add_flow_spec)
    RouteId route = 0;
    std::uint32_t weights_at = 0;
    double cap = kNoCap;
    std::uint16_t weights_count = 0;  // 0: unit weights; a route has far fewer hops
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
  /// A dependency on `id` (its start or its end, by `on_start`) is met now: releases its waiters.
  void release_waiters(TaskId id, bool on_start);
  TaskId new_task(const Task& t);

  /// Where `weights` are in weights_: an identical span added before is shared (a route's weights
  /// repeat for every transfer of its copy class), else they are appended.
  std::uint32_t intern_weights(std::span<const double> weights);

  FlowNetwork* net_;
  std::size_t task_count_ = 0;
  std::vector<Task> tasks_;
  std::vector<Flow> flows_;
  std::vector<double> weights_;
  std::unordered_multimap<std::uint64_t, std::uint32_t> weights_by_hash_;  // -> offset in weights_
  // (before, after with its Wait bits); turned into succ_ by run(). In blocks: their number is
  // known only then.
  std::deque<std::pair<TaskId, std::uint32_t>> edges_;
  std::vector<Pool> pools_;

  // By task: from its adding its release until it is ready (then, until the dependencies are all
  // met, the latest time one allows); when it became ready. start_ns_ and end_ns_ are made by
  // run(): a long trace's tasks are built without them.
  std::vector<double> ready_ns_;
  std::vector<double> start_ns_, end_ns_;
  // Run state.
  std::vector<std::uint32_t> succ_at_;  // CSR of successors
  std::vector<std::uint32_t> succ_;     // successor ids with their Wait bits
  // By task: the dependency that released it last, with the Wait bits of that dependency;
  // kNoPred where none did or its release held it back. Noted as the run goes, so that the
  // critical path needs neither the dependencies nor the tasks after the run.
  static constexpr std::uint32_t kNoPred = std::numeric_limits<std::uint32_t>::max();
  std::vector<std::uint32_t> crit_pred_;
  bool ran_ = false;
  bool note_critical_path_ = true;
  bool has_start_waiters_ = false;       // some task waits for another's start
  std::vector<std::uint32_t> waiting_on_;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers_;
  std::vector<std::pair<TaskId, Phase>> immediate_;
  std::uint64_t seq_ = 0;
  std::uint64_t events_ = 0;
  std::uint64_t ended_ = 0;
  double makespan_ns_ = 0;
};

}  // namespace linkcast::sim
