// Preemptions and infrastructure failures as they strike jobs: the lifecycle's side of the
// checkpoint model, the failure process and recovery.
#include <spdlog/logger.h>

#include <algorithm>

#include "sim/core/job_lifecycle.hpp"
#include "sim/model/error.hpp"
#include "sim/model/limits.hpp"

namespace acme::core {

void JobLifecycle::preempt(model::JobId id, bool may_save) {
  JobRuntime& job = table_.jobs.at(id);
  if (job.stage == JobStage::PLAN) {
    // A task plan restarts from its beginning: its progress is lost.
    trace_preempt(id, job, "plan restarts");
    ++job.accounting.preemptions;
    ++table_.cluster_of(job).view.mutable_job(id).preemptions; // what policies read (Job.preemptions)
    if (!may_save) {
      job.accounting.restart_preempted_gpu_s += job.allocated_gpus * (timer_.now_s() - job.allocated_since_s);
    }
    cancel_transfers(job);
    end_attempt(id, job, model::JobPhase::QUEUED, model::JobState::CANCELLED, model::EndCause::PREEMPTED);
    return;
  }
  if (!runs_own_work(job.stage)) {
    return; // already saving, hung or recovering: the preemption is moot
  }
  trace_preempt(id, job, may_save ? std::string_view{} : std::string_view{"a restart takes its nodes"});
  ++job.accounting.preemptions;
  ++table_.cluster_of(job).view.mutable_job(id).preemptions;
  parts_.checkpoint->stop_progress(job);
  cancel_transfers(job);
  if (!may_save) {
    const CheckpointState& c = job.checkpoint;
    job.accounting.restart_preempted_gpu_s += job.allocated_gpus * (c.progress_s - c.persisted_s);
  }
  parts_.checkpoint->preempt(id, job, may_save);
}

void JobLifecycle::preempt_for_restart(model::JobId id) {
  ++table_.jobs.at(id).accounting.restart_preemptions;
  preempt(id, false);
}

void JobLifecycle::trace_preempt(model::JobId id, const JobRuntime& job, std::string_view detail) {
  const model::JobSpec& spec = table_.entry(id, job).spec;
  log_.debug("job {} preempted{}{}", spec.name, detail.empty() ? "" : ": ", detail);
  if (trace_ != nullptr) {
    trace_->preempt(timer_.now_s(), spec, detail);
  }
}

void JobLifecycle::fail(model::JobId id, JobRuntime& job, std::uint32_t category,
                        std::span<const model::NodeId> at_fault) {
  const model::JobSpec& spec = table_.entry(id, job).spec;
  log_.debug("job {} hit by a {} failure", spec.name, faults_.failures.category_name(category));
  if (trace_ != nullptr) {
    trace_->fail(timer_.now_s(), spec, faults_.failures.category_name(category), at_fault);
  }
  job.accounting.count_failure(category, faults_.failures.categories.size());
  parts_.checkpoint->stop_progress(job);
  cancel_transfers(job);
  parts_.checkpoint->roll_back(job, spec.gpu_share());
  job.failed_at_s = timer_.now_s();
  job.recovered_at_s = -1.0;
  std::size_t categories = faults_.failures.categories.size();
  if (!parts_.recovery->applies(spec)) {
    job.accounting.failed_attempts.end_category = static_cast<std::int32_t>(category);
    finish(id, job, model::JobState::NODE_FAIL, model::EndCause::NODE_FAILURE);
    return;
  }
  job.accounting.close_failed_attempt(category, categories, job.allocated_gpus, timer_.now_s());
  check_progress(job, spec);
  parts_.recovery->on_failure(id, job, category);
}

void JobLifecycle::check_progress(JobRuntime& job, const model::JobSpec& spec) const {
  // A job restarted after each failure finishes only if it saves progress between failures: one that
  // keeps failing before its next checkpoint would restart forever (the clock ran for centuries).
  // Without lost work (failures.lose_work false) what a failure keeps is all the progress.
  double persisted = faults_.failures.lose_work ? job.checkpoint.persisted_s : job.checkpoint.progress_s;
  job.failures_without_progress = persisted > job.persisted_at_last_failure_s ? 0 : job.failures_without_progress + 1;
  job.persisted_at_last_failure_s = persisted;
  if (job.failures_without_progress < model::limits::MAX_FAILURES_WITHOUT_PROGRESS) {
    return;
  }
  throw ConfigError(faults_.failures.where, "failures",
                    "job " + excerpt(spec.name) + " (" + std::string(model::to_string(spec.type)) + ", " +
                        std::to_string(job.nodes) + " nodes, " + number_text(job.checkpoint.work_s) +
                        " s of work) failed " + std::to_string(job.failures_without_progress) +
                        " times in a row without saving progress: it fails more often than it can reach a "
                        "checkpoint; expected checkpoints (checkpoint.policy) or lower failure rates");
}

void JobLifecycle::fail_node_jobs(model::ClusterId cluster, std::uint32_t node, std::uint32_t category) {
  std::vector<model::JobId> hit = table_.cluster(cluster).jobs_on_node[node];
  const model::NodeId at_fault[] = {model::NodeId{node}};
  for (model::JobId id : hit) {
    fail(id, table_.jobs.at(id), category, at_fault);
  }
}

void JobLifecycle::fail_switch_jobs(model::ClusterId cluster, std::uint32_t node, std::uint32_t category) {
  std::vector<model::JobId> hit = table_.cluster(cluster).jobs_on_node[node];
  const model::NodeId at_fault[] = {model::NodeId{node}};
  for (model::JobId id : hit) {
    JobRuntime& job = table_.jobs.at(id);
    if (job.stage != JobStage::WAITING && job.failed_at_s != timer_.now_s()) {
      fail(id, job, category, at_fault);
    }
  }
}

bool JobLifecycle::node_restarting(model::ClusterId cluster, std::uint32_t node) const {
  const auto& on_node = table_.clusters[model::to_index(cluster)].jobs_on_node[node];
  return std::any_of(on_node.begin(), on_node.end(),
                     [&](model::JobId id) { return table_.jobs.at(id).failed_at_s >= 0.0; });
}

bool JobLifecycle::node_busy(model::ClusterId cluster, std::uint32_t node) const {
  return !table_.clusters[model::to_index(cluster)].jobs_on_node[node].empty();
}

void JobLifecycle::node_repaired(model::ClusterId cluster, std::uint32_t node) {
  if (!parts_.recovery->take_as_spare(cluster, node)) {
    nodes_.up(cluster, node, model::OutOfService::FAILED, "repaired");
  }
}

} // namespace acme::core
