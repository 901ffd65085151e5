#pragma once

#include <limits>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "policies/scheduling/scheduler.hpp"
#include "sim/core/job_runtime.hpp"
#include "sim/core/pod_launch.hpp"
#include "sim/model/cluster_view.hpp"
#include "sim/model/distribution.hpp"
#include "sim/model/event.hpp"

namespace acme::core {

/// One cluster as the engine runs it: the view its scheduler reads, the scheduler, its events.
struct ClusterRuntime {
  explicit ClusterRuntime(model::ClusterView v) : view(std::move(v)) {}

  model::ClusterView view;
  std::unique_ptr<policies::Scheduler> scheduler;
  std::vector<model::Event> pending;                            ///< events for the scheduler's next round
  std::set<double> wakeups;                                     ///< times the scheduler asked to be called (armed)
  double woken_at_s = -std::numeric_limits<double>::infinity(); ///< the last instant it was called for one
  std::vector<std::vector<model::JobId>> jobs_on_node;          ///< running jobs with a share on each node
  model::Distribution launch_latency;                           ///< allocation to start (e.g. Kubernetes pod start)
  std::optional<PodLaunch> pods;                                ///< binding and image pulls before the start, if any
  double storage_bw_Bps = 0.0;
  double storage_nic_bw_Bps = 0.0; ///< per node
};

/// The clusters and the active jobs: the state the engine's parts share.
struct JobTable {
  std::vector<ClusterRuntime> clusters;
  std::unordered_map<model::JobId, JobRuntime> jobs;

  ClusterRuntime& cluster(model::ClusterId id) { return clusters[model::to_index(id)]; }
  ClusterRuntime& cluster_of(const JobRuntime& job) { return cluster(job.cluster); }
  const model::JobEntry& entry(model::JobId id, const JobRuntime& job) { return cluster_of(job).view.job(id); }
  JobRuntime* find(model::JobId id) {
    auto it = jobs.find(id);
    return it == jobs.end() ? nullptr : &it->second;
  }
  /// The job an event of stage `generation` is for, unless it ended or left that stage meanwhile.
  JobRuntime* live(model::JobId id, std::uint32_t generation) {
    JobRuntime* job = find(id);
    return job == nullptr || job->generation != generation ? nullptr : job;
  }
};

} // namespace acme::core
