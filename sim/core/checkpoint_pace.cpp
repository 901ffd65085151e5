// The pace of a computing job: its progress per second of wall time is its network rate (the fluid
// model's share of its uncontended iteration) times its nodes' pace (its slowest node under
// failures.slow). A change to either settles the segment at the old pace and re-times its end.
#include <algorithm>

#include "sim/core/checkpoint_model.hpp"

namespace acme::core {

void CheckpointModel::settle(JobRuntime& job) const {
  CheckpointState& c = job.checkpoint;
  // Wall time in the segment first pays its debt (slowdown), then makes progress at the job's pace.
  double useful = std::max(0.0, timer_.now_s() - c.segment_start_s - c.segment_debt_s);
  double before = c.progress_s;
  c.progress_s = std::min(c.segment_stop_s, c.progress_s + useful * (c.rate * c.node_pace));
  account_slowdown(job, useful, c.progress_s - before);
}

void CheckpointModel::account_slowdown(JobRuntime& job, double useful, double gained) {
  const CheckpointState& c = job.checkpoint;
  if (c.rate >= 1.0 && c.node_pace >= 1.0) {
    return;
  }
  double lost = std::max(0.0, useful - gained);
  if (c.node_pace >= 1.0) {
    job.accounting.comm_lost_s += lost;
    return;
  }
  // The network's share first (what the job would have lost at full node speed), the stragglers' the rest.
  double comm = std::min(lost, c.rate < 1.0 ? useful * (1.0 - c.rate) : 0.0);
  job.accounting.comm_lost_s += comm;
  job.accounting.straggler_lost_s += lost - comm;
}

void CheckpointModel::set_progress_rate(model::JobId id, JobRuntime& job, double rate) {
  change_pace(id, job, &CheckpointState::rate, rate);
}

void CheckpointModel::set_node_pace(model::JobId id, JobRuntime& job, double pace) {
  change_pace(id, job, &CheckpointState::node_pace, pace);
}

void CheckpointModel::change_pace(model::JobId id, JobRuntime& job, double CheckpointState::*factor, double value) {
  CheckpointState& c = job.checkpoint;
  if (job.stage != JobStage::COMPUTING) {
    c.*factor = value; // the next segment runs at it (begin_compute reads the node pace from the placement)
    return;
  }
  if (value == c.*factor) {
    return;
  }
  double elapsed = timer_.now_s() - c.segment_start_s;
  double unpaid = std::max(0.0, c.segment_debt_s - elapsed);
  settle(job);
  c.debt_s += unpaid;
  c.*factor = value;
  start_segment(id, job);
}

} // namespace acme::core
