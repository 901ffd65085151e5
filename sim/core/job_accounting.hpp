#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/metrics/job_record.hpp"
#include "sim/model/cluster_view.hpp"
#include "sim/model/job.hpp"
#include "sim/model/wait_reason.hpp"

namespace acme::core {

struct JobRuntime;

/// What a job cost and suffered over all its attempts: what its row of jobs.csv reports.
struct JobAccounting {
  std::uint32_t attempts = 0; ///< times it started (a restart in place counts)
  double first_start_s = model::UNKNOWN_TIME_S;
  double gpu_seconds = 0.0;      ///< GPU time allocated, all attempts
  double stall_s = 0.0;          ///< checkpoint stalls (training paused)
  double restore_s = 0.0;        ///< reading checkpoints back
  double lost_work_s = 0.0;      ///< computation redone after failures or kills
  double lost_gpu_s = 0.0;       ///< GPU time lost to failures: rollback + detection .. restart + re-queue
  double gpu_busy_s = 0.0;       ///< GPU-seconds spent in GPU steps of its plan
  double comm_lost_s = 0.0;      ///< wall time computing lost to network slowdown (its run minus its uncontended run)
  double straggler_lost_s = 0.0; ///< wall time computing lost to slow nodes (failures.slow)
  double detection_gpu_s = 0.0;  ///< of lost_gpu_s: from each failure until its recovery steps ended
  double restart_gpu_s = 0.0;    ///< of lost_gpu_s: from then until it computed again
  std::uint32_t checkpoints = 0;
  std::uint32_t preemptions = 0;
  std::uint32_t restart_preemptions = 0; ///< of them, preemptions because a failed job's restart took its nodes
  double restart_preempted_gpu_s = 0.0;  ///< GPU time of the work those preemptions lost (second-order loss)
  std::vector<std::uint16_t> failures;   ///< per failure category (config order, then switches); empty until the first
  metrics::FailedAttempts failed_attempts;
  double attempt_start_s = -1.0; ///< when the attempt under way started computing or starting; < 0: none open
  std::array<double, model::WAIT_REASON_COUNT> wait_s{};   ///< seconds waited, by reason, all waits
  model::WaitReason wait_reason = model::WaitReason::NONE; ///< the reason now (while waiting)
  double wait_since_s = -1.0;                              ///< since when under wait_reason; < 0: not waiting

  /// Counts a failure of `category` among `categories` node failure categories (index `categories`:
  /// a switch failure).
  void count_failure(std::uint32_t category, std::size_t categories);
  /// An attempt starts (a start on placed nodes, or a restart in place).
  void open_attempt(double now_s) { attempt_start_s = now_s; }
  /// A failure of `category` ends the open attempt, if any, at `now_s`; the job goes on after it (a
  /// restart), so the attempt becomes a FAILED row of its own. `gpus`: the GPUs it held.
  void close_failed_attempt(std::uint32_t category, std::size_t categories, double gpus, double now_s);
  /// The job starts waiting (queued), its reason not yet known (NONE).
  void begin_wait(double now_s);
  /// While waiting, the reason changes to `reason`: the time since the last change counts for the old one.
  void note_wait(double now_s, model::WaitReason reason);
  /// The wait is over (started, or left the system).
  void end_wait(double now_s);
};

/// The record of a job that leaves the system at `end_s` (finished, or rejected with `reason`).
metrics::JobRecord make_job_record(const model::JobEntry& entry, const JobRuntime& job, double end_s,
                                   model::JobState state, model::RejectReason reason);

} // namespace acme::core
