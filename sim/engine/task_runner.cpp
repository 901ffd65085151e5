// Jobs that run a task plan: evaluation trials (load the model, preprocess, infer, compute metrics)
// and trial coordinator node jobs (pre-load the model once into host memory, then trials on every
// GPU, metrics spawned as CPU jobs). Each step is a storage transfer, a host-to-device copy, a timed
// CPU or GPU phase, or the submission of a follow-up job.
#include <algorithm>

#include "sim/engine/engine_state.hpp"
#include "sim/model/assert.hpp"

namespace acme::engine {
namespace {
constexpr std::int32_t PROLOGUE = -1;

const std::vector<model::TaskStep>& steps_of(const model::TaskPlan& plan, std::int32_t lane) {
  return lane == PROLOGUE ? plan.prologue : plan.lanes.at(static_cast<std::size_t>(lane));
}

} // namespace

void Simulation::Impl::begin_plan(model::JobId id, JobRuntime& job) {
  const model::JobSpec& spec = cluster_of_job(job).view.job(id).spec;
  enter(id, job, JobStage::PLAN);
  job.lane_step.assign(spec.plan->lanes.size() + 1, 0); // last entry: the prologue
  job.lanes_left = static_cast<std::uint32_t>(spec.plan->lanes.size());
  run_step(id, job, PROLOGUE);
}

void Simulation::Impl::run_step(model::JobId id, JobRuntime& job, std::int32_t lane) {
  const model::JobEntry& entry = cluster_of_job(job).view.job(id);
  const model::TaskPlan& plan = *entry.spec.plan;
  const auto& steps = steps_of(plan, lane);
  std::uint32_t& index = lane == PROLOGUE ? job.lane_step.back() : job.lane_step[static_cast<std::size_t>(lane)];
  while (index < steps.size() && steps[index].kind == model::TaskStep::Kind::SPAWN) {
    spawn(*steps[index].follow_up, entry.spec);
    ++index;
  }
  if (index == steps.size()) {
    on_step_end(id, job, lane); // the sequence is over
    return;
  }
  const model::TaskStep& step = steps[index];
  double lane_gpus = lane == PROLOGUE ? entry.spec.gpu_share() : plan.gpus_per_lane;
  switch (step.kind) {
  case model::TaskStep::Kind::STORAGE_READ: {
    // A lane reads through the NIC of its own node; the prologue through the job's first node.
    std::size_t share = lane == PROLOGUE
                            ? 0
                            : std::min(entry.placement.size() - 1, static_cast<std::size_t>(lane) * plan.gpus_per_lane /
                                                                       std::max(1u, entry.placement.front().gpus));
    core::TransferId t = io.start(
        core::TransferRequest{job.cluster, entry.placement.at(share).node, step.bytes, core::IoDirection::READ, id});
    job.lane_transfers.emplace_back(t, lane);
    return;
  }
  case model::TaskStep::Kind::HOST_COPY:
    queue.schedule(now_s + step.bytes / costs.h2d_Bps, core::StepEnded{id, job.generation, lane});
    return;
  case model::TaskStep::Kind::GPU:
    job.gpu_busy_s += lane_gpus * step.seconds;
    [[fallthrough]];
  case model::TaskStep::Kind::CPU:
  case model::TaskStep::Kind::GPU_IDLE:
    queue.schedule(now_s + step.seconds, core::StepEnded{id, job.generation, lane});
    return;
  case model::TaskStep::Kind::SPAWN:
    break;
  }
}

void Simulation::Impl::on_step_end(model::JobId id, JobRuntime& job, std::int32_t lane) {
  const model::JobSpec& spec = cluster_of_job(job).view.job(id).spec;
  const auto& steps = steps_of(*spec.plan, lane);
  std::uint32_t& index = lane == PROLOGUE ? job.lane_step.back() : job.lane_step[static_cast<std::size_t>(lane)];
  if (index < steps.size()) {
    ++index;
    run_step(id, job, lane); // continues, or comes back here once the sequence is over
    return;
  }
  if (lane == PROLOGUE) {
    for (std::int32_t l = 0; l < static_cast<std::int32_t>(spec.plan->lanes.size()); ++l) {
      run_step(id, job, l);
      if (jobs.find(id) == jobs.end()) {
        return; // the last lane finished the job
      }
    }
    if (spec.plan->lanes.empty()) {
      job.progress_s = job.work_s;
      finish_job(id, job, spec.final_state, model::EndCause::WORKLOAD);
    }
    return;
  }
  if (--job.lanes_left == 0) {
    job.progress_s = job.work_s;
    finish_job(id, job, spec.final_state, model::EndCause::WORKLOAD);
  }
}

void Simulation::Impl::on_plan_transfer_done(model::JobId id, JobRuntime& job, const core::TransferDone& done) {
  auto it = std::find_if(job.lane_transfers.begin(), job.lane_transfers.end(),
                         [&](const auto& t) { return t.first == done.transfer; });
  if (it == job.lane_transfers.end()) {
    return; // cancelled after it ended
  }
  ACME_ASSERT(done.ok, "transfers of running jobs fail only with their nodes, and those cancel them first");
  std::int32_t lane = it->second;
  job.lane_transfers.erase(it);
  on_step_end(id, job, lane);
}

void Simulation::Impl::spawn(const model::JobSpec& follow_up, const model::JobSpec& parent) {
  model::JobSpec job = follow_up;
  job.id = model::JobId{next_spawned_id++};
  job.cluster = parent.cluster;
  job.submit_time_s = now_s;
  job.eval_batch = parent.eval_batch;
  spawned.push_back(std::move(job));
}

} // namespace acme::engine
