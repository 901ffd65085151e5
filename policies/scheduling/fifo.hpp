#pragma once

#include "policies/scheduling/job_queue.hpp"
#include "policies/scheduling/scheduler.hpp"

namespace acme::policies {

/// Strict first-come first-served: jobs start in submission order; when the oldest waiting job does
/// not fit, nothing behind it starts (no backfilling). GPU jobs and CPU jobs queue separately since
/// they use separate resources (GPUs on nodes, the cluster's CPU pool).
class FifoScheduler final : public Scheduler {
public:
  std::vector<model::Decision> on_events(std::span<const model::Event> events,
                                         const model::ClusterView& cluster) override;

private:
  void start_gpu_jobs(const model::ClusterView& cluster, std::vector<model::Decision>& out);
  void start_cpu_jobs(const model::ClusterView& cluster, std::vector<model::Decision>& out);

  JobQueue gpu_queue_;
  JobQueue cpu_queue_;
  FreeResources free_;
};

} // namespace acme::policies
