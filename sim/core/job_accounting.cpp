#include "sim/core/job_accounting.hpp"

#include "sim/core/job_runtime.hpp"

namespace acme::core {

void JobAccounting::count_failure(std::uint32_t category, std::size_t categories) {
  if (failures.empty()) {
    failures.assign(categories + 1, 0); // + switch failures
  }
  ++failures.at(category);
}

void JobAccounting::close_failed_attempt(std::uint32_t category, std::size_t categories, double gpus, double now_s) {
  if (attempt_start_s < 0.0) {
    return; // struck again while restarting: no attempt was under way
  }
  if (failed_attempts.count.empty()) {
    failed_attempts.count.assign(categories + 1, 0); // + switch failures
    failed_attempts.gpu_s.assign(categories + 1, 0.0);
  }
  ++failed_attempts.count.at(category);
  failed_attempts.gpu_s.at(category) += gpus * (now_s - attempt_start_s);
  attempt_start_s = -1.0;
}

void JobAccounting::begin_wait(double now_s) {
  wait_reason = model::WaitReason::PRIORITY; // what Slurm reports for a pending job nothing else holds
  wait_since_s = now_s;
}

void JobAccounting::note_wait(double now_s, model::WaitReason reason) {
  if (wait_since_s < 0.0 || reason == wait_reason) {
    return;
  }
  wait_s[static_cast<std::size_t>(wait_reason)] += now_s - wait_since_s;
  wait_reason = reason;
  wait_since_s = now_s;
}

void JobAccounting::end_wait(double now_s) {
  if (wait_since_s < 0.0) {
    return;
  }
  wait_s[static_cast<std::size_t>(wait_reason)] += now_s - wait_since_s;
  wait_since_s = -1.0;
}

metrics::JobRecord make_job_record(const model::JobEntry& entry, const JobRuntime& job, double end_s,
                                   model::JobState state, model::RejectReason reason) {
  const JobAccounting& a = job.accounting;
  metrics::JobRecord r;
  r.spec = &entry.spec;
  r.first_start_s = a.first_start_s;
  r.end_s = end_s;
  r.state = state;
  r.attempts = a.attempts;
  r.reject = reason;
  r.gpu_seconds = a.gpu_seconds;
  r.leaves = job.leaves;
  r.nodes = job.nodes;
  r.work_s = job.checkpoint.progress_s;
  r.stall_s = a.stall_s;
  r.restore_s = a.restore_s;
  r.lost_work_s = a.lost_work_s;
  r.lost_gpu_s = a.lost_gpu_s;
  r.checkpoints = a.checkpoints;
  r.preemptions = a.preemptions;
  r.restart_preemptions = a.restart_preemptions;
  r.restart_preempted_gpu_s = a.restart_preempted_gpu_s;
  r.straggler_lost_s = a.straggler_lost_s;
  r.detection_gpu_s = a.detection_gpu_s;
  r.restart_gpu_s = a.restart_gpu_s;
  r.failures = a.failures;
  r.failed_attempts = a.failed_attempts;
  r.gpu_busy_s = a.gpu_busy_s;
  r.energy = metrics::JobEnergy{job.power.energy_J, job.power.stall_J, job.power.rollback_J};
  r.wait_s = a.wait_s;
  const model::ParallelLayout& layout = job.traffic.layout;
  if (!entry.spec.is_cpu_job() && layout.compute_s > 0.0) {
    r.layout = {layout.tp, layout.pp, layout.dp};
  }
  r.comm_modelled = job.traffic.modelled;
  r.comm_lost_s = a.comm_lost_s;
  return r;
}

} // namespace acme::core
