#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/metrics/power_report.hpp"
#include "sim/model/job.hpp"
#include "sim/model/wait_reason.hpp"

namespace acme::metrics {

/// How a node's fault came to light (summary.json's fault_tolerance.faults_by_detection).
enum class Detection : std::uint8_t {
  JOB_CRASH,     ///< it struck under a job, which crashed
  JOB_HANG,      ///< it struck under a job, which hung until noticed (the category's `hang`)
  JOB_START,     ///< latent on an idle node until a job started there and failed
  HEALTH_CHECK,  ///< latent on an idle node until a health check found it
  IDLE_NODE,     ///< it struck an idle node and took it out at once (no latency modelled)
  SLOW_EVICTION, ///< a slow node evicted by failures.slow.evict_after
};
constexpr std::size_t DETECTION_COUNT = 6;
constexpr std::array<const char*, DETECTION_COUNT> DETECTION_NAMES = {"job_crash",    "job_hang",  "job_start",
                                                                      "health_check", "idle_node", "slow_eviction"};

/// What the failure process counted in one cluster: latent faults (failures.latent_when_idle), repairs,
/// how each fault was detected, and the node time out of service (summary.json's fault_tolerance).
struct FaultCounts {
  std::uint64_t struck = 0;         ///< faults that struck an idle node and stayed latent
  std::uint64_t found_at_start = 0; ///< found by a job starting on the node (it fails at start)
  std::uint64_t found_by_check = 0; ///< found by a health check first
  std::uint64_t checks = 0;         ///< health checks run
  // The repairs of failed nodes (failures.repair).
  std::uint64_t repairs = 0;        ///< repairs finished
  std::uint64_t manual_repairs = 0; ///< of them, escalated to a person
  std::uint64_t unfixed = 0;        ///< of them, returned the node with its fault (latent again)
  /// Per failure category (failures.categories order), the faults that took a node out, by how they showed.
  std::vector<std::array<std::uint64_t, DETECTION_COUNT>> detected_by;
  /// Node-seconds out of service by reason (model::OutOfService bits, lowest first) and for any reason;
  /// the run's node-seconds in all (nodes x span).
  std::array<double, 6> out_of_service_node_s{};
  double any_out_of_service_node_s = 0.0;
  double failed_node_s = 0.0; ///< out for a failure of its own or its switch (repair, quarantine, switch)
  double node_s = 0.0;
};

/// How infrastructure failures cut a job into the rows AcmeTrace would hold: each attempt a failure ended
/// and the job then restarted after is a FAILED row of its own; the job's own row keeps the rest.
struct FailedAttempts {
  std::vector<std::uint16_t> count; ///< per failure category: attempts it ended; empty until the first
  std::vector<double> gpu_s;        ///< per failure category: their GPU time (attempt start to failure)
  std::int32_t end_category = -1;   ///< the category of the failure that ended the job (NODE_FAIL); -1: none
};

/// The final account of one job, reported once by the engine when the job leaves the system
/// (finished or rejected).
struct JobRecord {
  const model::JobSpec* spec = nullptr;
  double first_start_s = model::UNKNOWN_TIME_S; ///< start of the first attempt (unknown when rejected)
  double end_s = 0.0;                           ///< when it left the system
  model::JobState state = model::JobState::COMPLETED;
  std::uint32_t attempts = 0; ///< times it started
  model::RejectReason reject = model::RejectReason::NONE;
  double gpu_seconds = 0.0; ///< GPU time allocated to it, all attempts
  std::uint32_t leaves = 0; ///< leaf switches its (last) placement spans
  std::uint32_t nodes = 0;  ///< nodes of its (last) placement (0 for CPU jobs)
  double work_s = 0.0;      ///< computation done (its service time when it completes)
  double stall_s = 0.0;     ///< checkpoint stalls (training paused)
  double restore_s = 0.0;   ///< reading checkpoints back
  double lost_work_s = 0.0; ///< computation redone after failures or kills
  double lost_gpu_s = 0.0;  ///< GPU time lost to failures (rollback + downtime)
  std::uint32_t checkpoints = 0;
  std::uint32_t preemptions = 0;
  std::uint32_t restart_preemptions = 0; ///< of them, because a failed job's restart took its nodes
  double restart_preempted_gpu_s = 0.0;  ///< GPU time of the work those lost (second-order loss)
  double straggler_lost_s = 0.0;         ///< wall time computing lost to slow nodes (failures.slow)
  double detection_gpu_s = 0.0;          ///< of lost_gpu_s: from each failure until its recovery steps ended
  double restart_gpu_s = 0.0;            ///< of lost_gpu_s: from then until it computed again
  std::vector<std::uint16_t> failures;   ///< per failure category (RecorderOptions order)
  FailedAttempts failed_attempts;        ///< the rows its infrastructure failures cut
  double gpu_busy_s = 0.0;               ///< GPU-seconds of GPU work in a task plan (evaluation)
  std::array<double, model::WAIT_REASON_COUNT> wait_s{}; ///< seconds it waited, by reason, all waits
  std::array<std::uint32_t, 3> layout{};                 ///< tensor, pipeline, data parallel degrees (0: none, CPU job)
  bool comm_modelled = false;                            ///< the fluid network model ran: comm_lost_s is known
  double comm_lost_s = 0.0;                              ///< wall time lost to network slowdown (run minus uncontended)
  JobEnergy energy;                                      ///< its GPUs and its share of its nodes' base, all attempts
};

/// Whether the job ever started (its first attempt's pods ran).
inline bool ever_started(const JobRecord& record) {
  return record.first_start_s != model::UNKNOWN_TIME_S;
}

/// A job's queueing delay (seconds), the one definition every output uses (docs/policies.md, "Queueing
/// delay"): from its submission to its first start. Its first start is when its first attempt began
/// computing, so Kubernetes' binding, image pull and pod start count; re-queueing after a preemption or
/// failure does not (later attempts), nor does a team plan's hold (the job is submitted when the plan
/// releases it) or the gap before a pretraining run's next attempt (submitted when the chain releases it). A job that
/// left before it ever started waited its whole stay (summary.json's queue_s); jobs.csv's `queue` column, as
/// AcmeTrace's, is 0 for it and its run time is empty. Not for rejected jobs.
double queueing_delay_s(const JobRecord& record);

/// The reason a job waited longest (NONE when it never waited).
model::WaitReason longest_wait(const std::array<double, model::WAIT_REASON_COUNT>& wait_s);

/// State of one cluster over one output interval.
struct ClusterSample {
  double time_s = 0.0; ///< end of the interval
  std::uint16_t cluster = 0;
  double busy_gpus_avg = 0.0;    ///< time average over the interval
  std::size_t queued_jobs = 0;   ///< at the end of the interval
  std::uint64_t queued_gpus = 0; ///< GPU demand of queued jobs, at the end of the interval
  std::size_t running_jobs = 0;
  std::uint32_t up_nodes = 0;
  bool network = false;                 ///< the fluid network model runs: the fields below are set
  double nic_util_mean = 0.0;           ///< compute NICs, 0..1, at the end of the interval
  double nic_idle_share = 0.0;          ///< share of NICs carrying nothing
  double nic_util_p95 = 0.0;            ///< 95th percentile over the NICs
  double spine_util = 0.0;              ///< leaf-to-spine links, 0..1
  std::uint32_t nics = 0;               ///< NICs sampled
  std::uint32_t nics_idle = 0;          ///< of which idle
  std::uint32_t nics_above_quarter = 0; ///< of which above 25% of their bandwidth
  double power_W = 0.0;                 ///< mean total power over the interval (nodes, CPU servers, switches, storage)
  std::uint32_t nodes_off = 0;          ///< switched off by the power policy, at the end of the interval
};

/// What the recorder needs to know about each cluster.
struct ClusterInfo {
  std::string name;
  double utc_offset_s = 0.0;
  std::uint32_t nodes = 0;
  std::uint32_t gpus = 0;
  double storage_bw_Bps = 0.0; ///< of its storage system (for utilisation)
};

} // namespace acme::metrics
