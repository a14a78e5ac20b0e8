#include "sim/engine.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace linkcast::sim {

TaskId Engine::add_transfer(RouteId route, double bytes, std::span<const double> weights, double cap_gbps,
                            double fixed_ns) {
  if (!(bytes > 0)) return add_delay(fixed_ns);
  return add_transfer(add_flow_spec(route, weights, cap_gbps), bytes, fixed_ns);
}

FlowSpecId Engine::add_flow_spec(RouteId route, std::span<const double> weights, double cap_gbps) {
  Flow f;
  f.route = route;
  f.cap = cap_gbps;
  if (!weights.empty()) {
    if (weights.size() > UINT16_MAX) throw std::invalid_argument("Engine::add_flow_spec: a route of over 65,535 hops");
    f.weights_at = intern_weights(weights);
    f.weights_count = static_cast<std::uint16_t>(weights.size());
  }
  if (flows_.size() >= kNoFlow) throw std::length_error("Engine: more than 2^32 - 1 flow specs");
  flows_.push_back(f);
  return static_cast<FlowSpecId>(flows_.size() - 1);
}

TaskId Engine::add_transfer(FlowSpecId spec, double bytes, double fixed_ns) {
  if (spec >= flows_.size()) throw std::invalid_argument("Engine::add_transfer: no such flow spec");
  if (!(bytes > 0)) throw std::invalid_argument("Engine::add_transfer: a flow spec's transfer moves bytes > 0");
  Task t;
  t.fixed_ns = std::max(fixed_ns, 0.0);
  t.bytes_or_lag = bytes;
  t.flow = spec;
  return new_task(t);
}

TaskId Engine::add_delay(double ns) {
  Task t;
  t.fixed_ns = std::max(ns, 0.0);
  return new_task(t);
}

TaskId Engine::new_task(const Task& t) {
  if (task_count_ >= kMaxTasks) throw std::length_error("Engine: more than 2^30 tasks");
  tasks_.push_back(t);
  ready_ns_.push_back(0);
  return static_cast<TaskId>(task_count_++);
}

void Engine::set_lag(TaskId t, double lag_ns) {
  if (tasks_[t].flow != kNoFlow) throw std::invalid_argument("Engine::set_lag: a flow has no lag");
  tasks_[t].bytes_or_lag = std::max(lag_ns, 0.0);
}

void Engine::reserve(std::size_t tasks, std::size_t flow_specs) {
  tasks_.reserve(tasks);
  ready_ns_.reserve(tasks);
  flows_.reserve(flow_specs);
}

std::uint32_t Engine::intern_weights(std::span<const double> weights) {
  std::uint64_t h = 1469598103934665603ull ^ weights.size();  // FNV-1a over the values' bits
  for (double w : weights) {
    std::uint64_t bits;
    std::memcpy(&bits, &w, sizeof bits);
    h = (h ^ bits) * 1099511628211ull;
  }
  const auto [first, last] = weights_by_hash_.equal_range(h);
  for (auto it = first; it != last; ++it)
    if (std::equal(weights.begin(), weights.end(), weights_.begin() + it->second)) return it->second;
  const auto at = static_cast<std::uint32_t>(weights_.size());
  weights_.insert(weights_.end(), weights.begin(), weights.end());
  weights_by_hash_.emplace(h, at);
  return at;
}

std::vector<PathStep> Engine::critical_path(TaskId last) const {
  if (crit_pred_.size() != task_count_)
    throw std::logic_error(
        "Engine::critical_path: call run() first (noting the critical path), and release_run_data() after");
  // The walk back along what run() noted; counted first so the path takes its own size only.
  const auto walk = [&](auto&& visit) {
    Wait wait;
    for (TaskId t = last; t < task_count_;) {
      visit(t, wait);
      const std::uint32_t p = crit_pred_[t];
      if (p == kNoPred) break;
      wait = {(p & kOnStartBit) != 0, (p & kLaggedBit) != 0};
      t = p & kTaskBits;
    }
  };
  std::size_t steps = 0;
  walk([&](TaskId, Wait) { ++steps; });
  std::vector<PathStep> path;
  path.reserve(steps);
  walk([&](TaskId t, Wait wait) { path.push_back({t, wait, ready_ns_[t]}); });
  return path;
}

PoolId Engine::add_pool(int slots) {
  if (slots <= 0) throw std::invalid_argument("Engine::add_pool: slots must be > 0");
  Pool p;
  p.free = slots;
  pools_.push_back(std::move(p));
  return static_cast<PoolId>(pools_.size() - 1);
}

void Engine::on_ready(TaskId id) {
  ready_ns_[id] = net_->now();
  // A dependency that released this task well before it became ready did not hold it back.
  if (note_critical_path_ && crit_pred_[id] != kNoPred && end_ns_[id] + 1e-3 < ready_ns_[id] - 1.0)
    crit_pred_[id] = kNoPred;
  const Task& t = tasks_[id];
  if (t.pool != kNoPool) {
    Pool& p = pools_[t.pool];
    if (p.free == 0) {
      p.waiting.push_back(id);
      return;
    }
    --p.free;
  }
  on_start(id);
}

void Engine::on_start(TaskId id) {
  start_ns_[id] = net_->now();
  const Task& t = tasks_[id];
  const bool is_flow = t.flow != kNoFlow;
  if (t.fixed_ns > 0) schedule(net_->now() + t.fixed_ns, id, is_flow ? Phase::data : Phase::end);
  else if (is_flow) on_data(id);
  else now_do(id, Phase::end);
  if (has_start_waiters_) release_waiters(id, true);
}

void Engine::on_data(TaskId id) {
  const Task& t = tasks_[id];
  const Flow& f = flows_[t.flow];
  const std::span<const double> w(weights_.data() + f.weights_at, f.weights_count);
  net_->start(f.route, t.bytes_or_lag, w, f.cap, id);
}

void Engine::release_waiters(TaskId id, bool on_start) {
  const double now = net_->now();
  for (std::uint32_t i = succ_at_[id]; i < succ_at_[id + 1]; ++i) {
    const std::uint32_t edge = succ_[i];
    if (((edge & kOnStartBit) != 0) != on_start) continue;
    const TaskId s = edge & kTaskBits;
    const double released = (edge & kLaggedBit) ? now + tasks_[s].bytes_or_lag : now;
    // The dependency that released s last (the lowest task of a tie) is its critical
    // predecessor; until s ends, end_ns_ holds that release.
    if (note_critical_path_ &&
        (released > end_ns_[s] || (released == end_ns_[s] && id < (crit_pred_[s] & kTaskBits)))) {
      end_ns_[s] = released;
      crit_pred_[s] = id | (edge & ~kTaskBits);
    }
    // Until it is ready, ready_ns holds the latest time a dependency (or the release) allows.
    double& ready_ns = ready_ns_[s];
    ready_ns = std::max(ready_ns, released);
    if (--waiting_on_[s] > 0) continue;
    if (ready_ns > now) schedule(ready_ns, s, Phase::ready);
    else now_do(s, Phase::ready);
  }
}

void Engine::on_end(TaskId id) {
  end_ns_[id] = net_->now();
  ++ended_;
  makespan_ns_ = std::max(makespan_ns_, end_ns_[id]);
  const Task& t = tasks_[id];
  if (t.pool != kNoPool) {
    Pool& p = pools_[t.pool];
    if (p.head < p.waiting.size()) now_do(p.waiting[p.head++], Phase::start);
    else ++p.free;
  }
  release_waiters(id, false);
}

void Engine::drain() {
  for (std::size_t i = 0; i < immediate_.size(); ++i) {
    const auto [task, phase] = immediate_[i];
    switch (phase) {
      case Phase::ready: on_ready(task); break;
      case Phase::start: on_start(task); break;
      case Phase::data: on_data(task); break;
      case Phase::end: on_end(task); break;
    }
  }
  immediate_.clear();
}

void Engine::run(const std::function<void(std::uint64_t)>& progress) {
  const std::size_t n = task_count_;
  if (ran_) throw std::logic_error("Engine::run: an engine runs once");
  ran_ = true;
  // The room reserved for a spec a transfer (reserve) goes back where transfers shared them: it
  // was never touched, but it counts as held.
  if (flows_.size() < flows_.capacity() / 2) flows_.shrink_to_fit();
  start_ns_.assign(n, -1);
  end_ns_.assign(n, -1);
  if (note_critical_path_) crit_pred_.assign(n, kNoPred);
  waiting_on_.assign(n, 0);
  succ_at_.assign(n + 1, 0);
  for (const auto& [before, after] : edges_) {
    ++succ_at_[before + 1];
    ++waiting_on_[after & kTaskBits];
    has_start_waiters_ = has_start_waiters_ || (after & kOnStartBit) != 0;
  }
  for (std::size_t i = 0; i < n; ++i) succ_at_[i + 1] += succ_at_[i];
  succ_.assign(edges_.size(), 0);
  {
    // The edges go as they are placed: the deque frees its blocks, and a long trace never holds
    // both whole.
    std::vector<std::uint32_t> fill(succ_at_.begin(), succ_at_.end() - 1);
    while (!edges_.empty()) {
      const auto [before, after] = edges_.front();
      succ_[fill[before]++] = after;
      edges_.pop_front();
    }
  }
  std::deque<std::pair<TaskId, std::uint32_t>>().swap(edges_);
  for (TaskId id = 0; id < n; ++id)
    if (waiting_on_[id] == 0) schedule(ready_ns_[id], id, Phase::ready);

  std::vector<FlowId> done;
  std::uint64_t last_report = 0;
  while (true) {
    const double t_flow = net_->next_completion();
    const double t_timer = timers_.empty() ? std::numeric_limits<double>::infinity() : timers_.top().t;
    const double t = std::min(t_flow, t_timer);
    if (!std::isfinite(t)) break;
    done.clear();
    net_->advance_to(std::max(t, net_->now()), done);
    for (FlowId f : done) {
      ++events_;
      on_end(static_cast<TaskId>(net_->user(f)));
    }
    drain();
    while (!timers_.empty() && timers_.top().t <= net_->now()) {
      const Timer timer = timers_.top();
      timers_.pop();
      ++events_;
      now_do(timer.task, timer.phase);
    }
    drain();
    if (progress && (events_ >> 18) != last_report) {
      last_report = events_ >> 18;
      progress(ended_);
    }
  }
  // What only the run needed (critical_path needs crit_pred_ and the times).
  std::vector<Task>().swap(tasks_);
  std::vector<Flow>().swap(flows_);
  std::vector<double>().swap(weights_);
  weights_by_hash_.clear();
  std::vector<std::uint32_t>().swap(waiting_on_);
  std::vector<std::uint32_t>().swap(succ_);
  std::vector<std::uint32_t>().swap(succ_at_);
  if (ended_ != n)
    throw std::logic_error("Engine::run: " + std::to_string(n - ended_) +
                           " tasks never started: their dependencies form a cycle");
}

void Engine::release_run_data() {
  std::vector<std::uint32_t>().swap(crit_pred_);
  std::vector<double>().swap(ready_ns_);
}

}  // namespace linkcast::sim
