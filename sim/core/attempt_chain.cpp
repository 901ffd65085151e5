#include "sim/core/attempt_chain.hpp"

#include <limits>

namespace acme::core {

bool AttemptChain::hold(model::JobSpec& spec) {
  if (spec.run == model::RunId{} || spec.resubmit_delay_s < 0.0) {
    return false;
  }
  std::uint64_t run = run_key(spec);
  auto last = last_of_run_.find(run);
  if (last == last_of_run_.end()) {
    return false;
  }
  model::JobId previous = last->second;
  last->second = spec.id;
  run_of_.emplace(spec.id, run);
  held_.emplace(previous, std::move(spec));
  return true;
}

void AttemptChain::on_submitted(const model::JobSpec& spec) {
  if (spec.run == model::RunId{} || run_of_.count(spec.id) > 0) {
    return; // not part of a run, or released by the chain (tracked since it was held)
  }
  std::uint64_t run = run_key(spec);
  last_of_run_[run] = spec.id;
  run_of_.emplace(spec.id, run);
}

void AttemptChain::on_ended(model::JobId id, double now_s) {
  auto run = run_of_.find(id);
  if (run == run_of_.end()) {
    return;
  }
  auto last = last_of_run_.find(run->second);
  if (last != last_of_run_.end() && last->second == id) {
    last_of_run_.erase(last);
  }
  run_of_.erase(run);
  auto held = held_.find(id);
  if (held == held_.end()) {
    return;
  }
  model::JobSpec next = std::move(held->second);
  held_.erase(held);
  double release_s = now_s + next.resubmit_delay_s;
  next.submit_time_s = release_s;
  model::JobId next_id = next.id;
  due_.emplace(std::make_pair(release_s, next_id), std::move(next));
}

double AttemptChain::next_time_s() const {
  return due_.empty() ? std::numeric_limits<double>::infinity() : due_.begin()->first.first;
}

std::vector<model::JobSpec> AttemptChain::take_due(double now_s) {
  std::vector<model::JobSpec> out;
  while (!due_.empty() && due_.begin()->first.first <= now_s) {
    out.push_back(std::move(due_.begin()->second));
    due_.erase(due_.begin());
  }
  return out;
}

} // namespace acme::core
