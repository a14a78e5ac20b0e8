#include "sim/engine.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace linkcast::sim {

TaskId Engine::add_transfer(RouteId route, double bytes, std::span<const double> weights, double cap_gbps,
                            double fixed_ns) {
  Task t;
  t.route = route;
  t.is_flow = bytes > 0;
  t.bytes = bytes;
  t.cap = cap_gbps;
  t.fixed_ns = std::max(fixed_ns, 0.0);
  if (!weights.empty()) {
    t.weights_at = intern_weights(weights);
    if (weights.size() > UINT16_MAX) throw std::invalid_argument("Engine::add_transfer: a route of over 65,535 hops");
    t.weights_count = static_cast<std::uint16_t>(weights.size());
  }
  tasks_.push_back(t);
  timings_.push_back(TaskTiming{});
  return static_cast<TaskId>(task_count_++);
}

TaskId Engine::add_delay(double ns) {
  Task t;
  t.fixed_ns = std::max(ns, 0.0);
  tasks_.push_back(t);
  timings_.push_back(TaskTiming{});
  return static_cast<TaskId>(task_count_++);
}

void Engine::reserve(std::size_t tasks) {
  tasks_.reserve(tasks);
  timings_.reserve(tasks);
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

void Engine::depend(TaskId after, TaskId before) { edges_.emplace_back(before, after); }

std::vector<TaskId> Engine::critical_path(TaskId last) const {
  // Predecessors, from the successors run() kept.
  const std::size_t n = task_count_;
  if (succ_at_.size() != n + 1) throw std::logic_error("Engine::critical_path: call run() first");
  std::vector<std::uint32_t> pred_at(n + 1, 0);
  for (TaskId after : succ_) ++pred_at[after + 1];
  for (std::size_t i = 0; i < n; ++i) pred_at[i + 1] += pred_at[i];
  std::vector<TaskId> pred(succ_.size());
  {
    std::vector<std::uint32_t> fill(pred_at.begin(), pred_at.end() - 1);
    for (TaskId before = 0; before < n; ++before)
      for (std::uint32_t k = succ_at_[before]; k < succ_at_[before + 1]; ++k) pred[fill[succ_[k]]++] = before;
  }
  std::vector<TaskId> path;
  std::vector<char> seen(n, 0);
  TaskId t = last;
  while (t < n && !seen[t]) {
    seen[t] = 1;
    path.push_back(t);
    TaskId best = static_cast<TaskId>(n);
    double best_end = -1;
    for (std::uint32_t k = pred_at[t]; k < pred_at[t + 1]; ++k) {
      const double e = timings_[pred[k]].end_ns;
      if (e > best_end) {
        best_end = e;
        best = pred[k];
      }
    }
    // A predecessor that ended well before this task became ready did not hold it back.
    if (best >= n || best_end + 1e-3 < timings_[t].ready_ns - 1.0) break;
    t = best;
  }
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
  TaskTiming& tm = timings_[id];
  tm.ready_ns = net_->now();
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
  timings_[id].start_ns = net_->now();
  const Task& t = tasks_[id];
  if (t.fixed_ns > 0) schedule(net_->now() + t.fixed_ns, id, t.is_flow ? Phase::data : Phase::end);
  else if (t.is_flow) on_data(id);
  else now_do(id, Phase::end);
}

void Engine::on_data(TaskId id) {
  const Task& t = tasks_[id];
  const std::span<const double> w(weights_.data() + t.weights_at, t.weights_count);
  net_->start(t.route, t.bytes, w, t.cap, id);
}

void Engine::on_end(TaskId id) {
  TaskTiming& tm = timings_[id];
  tm.end_ns = net_->now();
  ++ended_;
  makespan_ns_ = std::max(makespan_ns_, tm.end_ns);
  const Task& t = tasks_[id];
  if (t.pool != kNoPool) {
    Pool& p = pools_[t.pool];
    if (p.head < p.waiting.size()) now_do(p.waiting[p.head++], Phase::start);
    else ++p.free;
  }
  for (std::uint32_t i = succ_at_[id]; i < succ_at_[id + 1]; ++i) {
    const TaskId s = succ_[i];
    if (--waiting_on_[s] > 0) continue;
    const double release_ns = timings_[s].ready_ns;  // not ready yet: its release
    if (release_ns > net_->now()) schedule(release_ns, s, Phase::ready);
    else now_do(s, Phase::ready);
  }
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
  if (tasks_.size() != n) throw std::logic_error("Engine::run: an engine runs once");
  waiting_on_.assign(n, 0);
  succ_at_.assign(n + 1, 0);
  for (const auto& [before, after] : edges_) {
    ++succ_at_[before + 1];
    ++waiting_on_[after];
  }
  for (std::size_t i = 0; i < n; ++i) succ_at_[i + 1] += succ_at_[i];
  succ_.assign(edges_.size(), 0);
  {
    std::vector<std::uint32_t> fill(succ_at_.begin(), succ_at_.end() - 1);
    for (const auto& [before, after] : edges_) succ_[fill[before]++] = after;
  }
  std::deque<std::pair<TaskId, TaskId>>().swap(edges_);
  for (TaskId id = 0; id < n; ++id)
    if (waiting_on_[id] == 0) schedule(timings_[id].ready_ns, id, Phase::ready);

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
  // What only the run needed.
  std::vector<Task>().swap(tasks_);
  std::vector<double>().swap(weights_);
  weights_by_hash_.clear();
  std::vector<std::uint32_t>().swap(waiting_on_);
  if (ended_ != n)
    throw std::logic_error("Engine::run: " + std::to_string(n - ended_) +
                           " tasks never started: their dependencies form a cycle");
}

}  // namespace linkcast::sim
