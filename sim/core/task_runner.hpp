#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/cluster_runtime.hpp"
#include "sim/core/io_service.hpp"
#include "sim/core/job_control.hpp"
#include "sim/core/timer_service.hpp"

namespace acme::core {

/// Jobs that run a task plan: evaluation trials (load the model, preprocess, infer, compute metrics)
/// and trial coordinator node jobs (pre-load the model once into host memory, then trials on every
/// GPU, metrics spawned as CPU jobs). The prologue runs first, then every lane at once; each step is
/// a storage read, a host-to-device copy, a timed CPU or GPU phase, or the submission of a follow-up
/// job. The job ends with its last lane. Its state is each job's PlanState.
class TaskRunner {
public:
  /// `h2d_Bps`: host-to-device copy bandwidth per GPU.
  TaskRunner(TimerService& timer, IoService& io, JobTable& table, JobControl& control, double h2d_Bps);

  /// The job was launched: its plan starts from the beginning.
  void begin(model::JobId id, JobRuntime& job);
  /// StepEnded: the lane's timed step is over.
  void on_step_end(model::JobId id, JobRuntime& job, std::int32_t lane);
  /// A storage read of a lane ended; stale ones are ignored.
  void on_transfer_done(model::JobId id, JobRuntime& job, const TransferDone& done);
  /// Drops the job's plan reads in flight.
  void cancel_transfers(JobRuntime& job);
  /// Whether plans spawned follow-up jobs that take_spawned() has not handed out yet.
  bool has_spawned() const { return !spawned_.empty(); }
  /// The follow-up jobs spawned since the last call, in spawn order, to submit now.
  std::vector<model::JobSpec> take_spawned();

private:
  /// Runs the lane's next steps until one takes time; false when that finished the job.
  bool run_step(model::JobId id, JobRuntime& job, std::int32_t lane);
  /// The lane's current step is over; false when that finished the job.
  bool step_done(model::JobId id, JobRuntime& job, std::int32_t lane);
  void spawn(const model::JobSpec& follow_up, const model::JobSpec& parent);

  TimerService& timer_;
  IoService& io_;
  JobTable& table_;
  JobControl& control_;
  double h2d_Bps_;
  std::uint64_t next_spawned_id_ = std::uint64_t{1} << 62; ///< ids of jobs spawned by plans
  std::vector<model::JobSpec> spawned_;
};

} // namespace acme::core
