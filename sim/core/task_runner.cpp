#include "sim/core/task_runner.hpp"

#include <algorithm>

#include "sim/model/assert.hpp"

namespace acme::core {
namespace {

/// A read of `bytes` through `node`'s storage path for job `owner`.
TransferRequest read_request(model::ClusterId cluster, model::NodeId node, double bytes, model::JobId owner) {
  TransferRequest request;
  request.cluster = cluster;
  request.node = node;
  request.bytes = bytes;
  request.direction = IoDirection::READ;
  request.owner = owner;
  return request;
}

const std::vector<model::TaskStep>& steps_of(const model::TaskPlan& plan, std::int32_t lane) {
  return lane == PROLOGUE_LANE ? plan.prologue : plan.lanes.at(static_cast<std::size_t>(lane));
}

std::uint32_t& step_index(PlanState& plan, std::int32_t lane) {
  return lane == PROLOGUE_LANE ? plan.lane_step.back() : plan.lane_step[static_cast<std::size_t>(lane)];
}

} // namespace

TaskRunner::TaskRunner(TimerService& timer, IoService& io, JobTable& table, JobControl& control, double h2d_Bps)
    : timer_(timer)
    , io_(io)
    , table_(table)
    , control_(control)
    , h2d_Bps_(h2d_Bps) {}

void TaskRunner::begin(model::JobId id, JobRuntime& job) {
  const model::JobSpec& spec = table_.entry(id, job).spec;
  job.enter(JobStage::PLAN, timer_.now_s());
  job.plan.lane_step.assign(spec.plan->lanes.size() + 1, 0); // last entry: the prologue
  job.plan.lanes_left = static_cast<std::uint32_t>(spec.plan->lanes.size());
  run_step(id, job, PROLOGUE_LANE);
}

bool TaskRunner::run_step(model::JobId id, JobRuntime& job, std::int32_t lane) {
  const model::JobEntry& entry = table_.entry(id, job);
  const model::TaskPlan& plan = *entry.spec.plan;
  const auto& steps = steps_of(plan, lane);
  std::uint32_t& index = step_index(job.plan, lane);
  while (index < steps.size() && steps[index].kind == model::TaskStep::Kind::SPAWN) {
    spawn(*steps[index].follow_up, entry.spec);
    ++index;
  }
  if (index == steps.size()) {
    return step_done(id, job, lane); // the sequence is over
  }
  const double now_s = timer_.now_s();
  const model::TaskStep& step = steps[index];
  double lane_gpus = lane == PROLOGUE_LANE ? entry.spec.gpu_share() : plan.gpus_per_lane;
  switch (step.kind) {
  case model::TaskStep::Kind::STORAGE_READ: {
    // A lane reads through the NIC of its own node; the prologue through the job's first node.
    std::size_t share = lane == PROLOGUE_LANE
                            ? 0
                            : std::min(entry.placement.size() - 1, static_cast<std::size_t>(lane) * plan.gpus_per_lane /
                                                                       std::max(1u, entry.placement.front().gpus));
    TransferId t = io_.start(read_request(job.cluster, entry.placement.at(share).node, step.bytes, id));
    job.plan.transfers.emplace_back(t, lane);
    job.notify(now_s);
    return true;
  }
  case model::TaskStep::Kind::HOST_COPY:
    timer_.schedule(now_s + step.bytes / h2d_Bps_, StepEnded{id, job.generation, lane});
    job.notify(now_s);
    return true;
  case model::TaskStep::Kind::GPU:
    job.accounting.gpu_busy_s += lane_gpus * step.seconds;
    [[fallthrough]];
  case model::TaskStep::Kind::CPU:
  case model::TaskStep::Kind::GPU_IDLE:
    timer_.schedule(now_s + step.seconds, StepEnded{id, job.generation, lane});
    job.notify(now_s); // the lane's GPUs draw what the new step does
    return true;
  case model::TaskStep::Kind::SPAWN:
    break;
  }
  return true;
}

void TaskRunner::on_step_end(model::JobId id, JobRuntime& job, std::int32_t lane) {
  step_done(id, job, lane);
}

bool TaskRunner::step_done(model::JobId id, JobRuntime& job, std::int32_t lane) {
  const model::JobSpec& spec = table_.entry(id, job).spec;
  const auto& steps = steps_of(*spec.plan, lane);
  std::uint32_t& index = step_index(job.plan, lane);
  if (index < steps.size()) {
    ++index;
    return run_step(id, job, lane); // continues, or comes back here once the sequence is over
  }
  bool finished = lane == PROLOGUE_LANE ? spec.plan->lanes.empty() : --job.plan.lanes_left == 0;
  if (lane == PROLOGUE_LANE) {
    for (std::int32_t l = 0; l < static_cast<std::int32_t>(spec.plan->lanes.size()); ++l) {
      if (!run_step(id, job, l)) {
        return false; // the last lane finished the job
      }
    }
  }
  if (!finished) {
    job.notify(timer_.now_s()); // this lane's GPUs are idle now
  }
  if (finished) {
    job.checkpoint.progress_s = job.checkpoint.work_s;
    control_.finish(id, job, spec.final_state, model::EndCause::WORKLOAD);
    return false;
  }
  return true;
}

void TaskRunner::on_transfer_done(model::JobId id, JobRuntime& job, const TransferDone& done) {
  auto& transfers = job.plan.transfers;
  auto it = std::find_if(transfers.begin(), transfers.end(), [&](const auto& t) { return t.first == done.transfer; });
  if (it == transfers.end()) {
    return; // cancelled after it ended
  }
  ACME_ASSERT(done.ok, "transfers of running jobs fail only with their nodes, and those cancel them first");
  std::int32_t lane = it->second;
  transfers.erase(it);
  step_done(id, job, lane);
}

void TaskRunner::cancel_transfers(JobRuntime& job) {
  for (const auto& [t, lane] : job.plan.transfers) {
    io_.cancel(t);
  }
  job.plan.transfers.clear();
}

std::vector<model::JobSpec> TaskRunner::take_spawned() {
  std::vector<model::JobSpec> out;
  out.swap(spawned_);
  return out;
}

void TaskRunner::spawn(const model::JobSpec& follow_up, const model::JobSpec& parent) {
  model::JobSpec job = follow_up;
  job.id = model::JobId{next_spawned_id_++};
  job.cluster = parent.cluster;
  job.submit_time_s = timer_.now_s();
  job.eval_batch = parent.eval_batch;
  spawned_.push_back(std::move(job));
}

} // namespace acme::core
