#include "policies/scheduling/running_jobs.hpp"

#include <algorithm>
#include <limits>

#include "policies/scheduling/node_tally.hpp"
#include "sim/model/assert.hpp"

namespace acme::policies {
namespace {
const std::vector<JobShare> NO_JOBS;
} // namespace

void RunningJobs::add(RunningJob job) {
  for (const auto& share : job.placement) {
    auto n = model::to_index(share.node);
    if (n >= on_node_.size()) {
      on_node_.resize(n + 1);
    }
    on_node_[n].push_back({job.id, planned_gpus(share)});
  }
  by_end_.emplace(job.est_end_s, job.id);
  auto [it, inserted] = jobs_.emplace(job.id, std::move(job));
  ACME_ASSERT(inserted, "a job runs once at a time");
}

std::optional<RunningJob> RunningJobs::remove(model::JobId id) {
  auto it = jobs_.find(id);
  if (it == jobs_.end()) {
    return std::nullopt;
  }
  RunningJob job = std::move(it->second);
  jobs_.erase(it);
  by_end_.erase({job.est_end_s, id});
  for (const auto& share : job.placement) {
    auto& list = on_node_[model::to_index(share.node)];
    list.erase(std::find_if(list.begin(), list.end(), [id](const JobShare& s) { return s.job == id; }));
  }
  return job;
}

const RunningJob* RunningJobs::find(model::JobId id) const {
  auto it = jobs_.find(id);
  return it == jobs_.end() ? nullptr : &it->second;
}

bool RunningJobs::extend_overruns(double now_s) {
  bool changed = false;
  while (!by_end_.empty() && by_end_.begin()->first <= now_s) {
    auto [end_s, id] = *by_end_.begin();
    by_end_.erase(by_end_.begin());
    RunningJob& job = jobs_.at(id);
    double ran_s = now_s - job.start_s;
    job.est_end_s = std::max(job.start_s + 2.0 * ran_s, now_s + OVERRUN_MIN_EXTENSION_S);
    by_end_.emplace(job.est_end_s, id);
    changed = true;
  }
  return changed;
}

double RunningJobs::earliest_end_s() const {
  return by_end_.empty() ? std::numeric_limits<double>::infinity() : by_end_.begin()->first;
}

const std::vector<JobShare>& RunningJobs::on_node(model::NodeId node) const {
  auto n = model::to_index(node);
  return n < on_node_.size() ? on_node_[n] : NO_JOBS;
}

} // namespace acme::policies
