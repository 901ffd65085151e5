#include "sim/core/team_plan.hpp"

#include <algorithm>

#include "sim/core/attempt_chain.hpp"

namespace acme::core {

TeamPlan::TeamPlan(std::vector<config::TeamPlanConfig> plans) {
  clusters_.resize(plans.size());
  for (std::size_t i = 0; i < plans.size(); ++i) {
    any_ = any_ || plans[i].enabled();
    clusters_[i].config = std::move(plans[i]);
  }
}

bool TeamPlan::fits(const ClusterPlan& plan, std::uint32_t gpus) {
  return plan.under_way_gpus == 0 || plan.under_way_gpus + gpus <= plan.config.gpus;
}

bool TeamPlan::planned(const model::JobSpec& spec) const {
  if (!any_) {
    return false;
  }
  std::size_t c = model::to_index(spec.cluster);
  if (c >= clusters_.size() || !clusters_[c].config.enabled() || spec.is_cpu_job()) {
    return false;
  }
  const auto& types = clusters_[c].config.types;
  return std::find(types.begin(), types.end(), spec.type) != types.end();
}

bool TeamPlan::hold(model::JobSpec& spec) {
  if (!planned(spec)) {
    return false;
  }
  if (spec.run != model::RunId{} && spec.attempt != 1) {
    auto run = followers_.find(AttemptChain::run_key(spec));
    if (run == followers_.end()) {
      return false; // its run is under way: the attempt chain orders its attempts
    }
    run->second.push_back(std::move(spec));
    return true;
  }
  ClusterPlan& plan = clusters_[model::to_index(spec.cluster)];
  if (plan.held.empty() && fits(plan, spec.gpus)) {
    return false;
  }
  if (spec.run != model::RunId{}) {
    followers_.emplace(AttemptChain::run_key(spec), std::vector<model::JobSpec>{});
  }
  plan.held.push_back(std::move(spec));
  return true;
}

void TeamPlan::on_submitted(const model::JobSpec& spec) {
  if (!planned(spec)) {
    return;
  }
  std::size_t c = model::to_index(spec.cluster);
  if (counted_.emplace(spec.id, std::make_pair(c, spec.gpus)).second) {
    clusters_[c].under_way_gpus += spec.gpus; // a released run was counted when it was released
  }
}

void TeamPlan::on_ended(model::JobId id, double now_s) {
  if (!any_) {
    return; // no plan: no job is counted
  }
  auto it = counted_.find(id);
  if (it == counted_.end()) {
    return;
  }
  ClusterPlan& plan = clusters_[it->second.first];
  plan.under_way_gpus -= it->second.second;
  counted_.erase(it);
  release(plan, now_s);
}

void TeamPlan::release(ClusterPlan& plan, double now_s) {
  // Runs released now count as under way at once, so that two of them never overcommit the budget.
  while (!plan.held.empty()) {
    model::JobSpec& next = plan.held.front();
    if (!fits(plan, next.gpus)) {
      return;
    }
    plan.hold_s.push_back(now_s - next.submit_time_s);
    next.submit_time_s = now_s;
    plan.under_way_gpus += next.gpus;
    counted_.emplace(next.id, std::make_pair(model::to_index(next.cluster), next.gpus));
    auto run = followers_.find(AttemptChain::run_key(next));
    due_.push_back(std::move(next));
    if (run != followers_.end()) {
      for (model::JobSpec& later : run->second) {
        due_.push_back(std::move(later));
      }
      followers_.erase(run);
    }
    plan.held.pop_front();
    due_s_ = now_s;
  }
}

std::vector<model::JobSpec> TeamPlan::take_due() {
  std::vector<model::JobSpec> out;
  out.swap(due_);
  return out;
}

bool TeamPlan::empty() const {
  if (!due_.empty()) {
    return false;
  }
  for (const ClusterPlan& plan : clusters_) {
    if (!plan.held.empty()) {
      return false;
    }
  }
  return true;
}

std::uint64_t TeamPlan::under_way_gpus(model::ClusterId cluster) const {
  std::size_t c = model::to_index(cluster);
  return c < clusters_.size() ? clusters_[c].under_way_gpus : 0;
}

std::optional<std::vector<double>> TeamPlan::hold_times_s(std::size_t cluster) const {
  if (cluster >= clusters_.size() || !clusters_[cluster].config.enabled()) {
    return std::nullopt;
  }
  return clusters_[cluster].hold_s;
}

} // namespace acme::core
