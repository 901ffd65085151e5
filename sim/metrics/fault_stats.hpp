#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/metrics/job_record.hpp"
#include "sim/metrics/trace_states.hpp"

namespace acme::metrics {

struct RunInfo;

/// Fault-tolerance and storage figures: per cluster totals for summary.json, per logical training
/// run for runs.csv (a run's attempts are the jobs sharing its run id).
class FaultStats {
public:
  FaultStats(std::vector<ClusterInfo> clusters, std::vector<std::string> categories);

  void add(const JobRecord& record);
  /// The "fault_tolerance" and "storage" members of cluster `c` in summary.json (no braces around).
  std::string render_cluster(std::size_t c, const RunInfo& info) const;
  /// runs.csv: one row per logical run.
  std::string runs_csv() const;
  std::string failures_text(const std::vector<std::uint16_t>& failures) const;
  /// The failure process's counts: latent faults, repairs, faults by detection path, node availability.
  std::string fault_counts_json(const FaultCounts& counts) const;

private:
  struct Totals {
    std::vector<std::uint64_t> failures;
    double lost_gpu_s = 0.0;
    double rollback_gpu_s = 0.0; ///< recomputed work x GPUs: failure rollbacks (in lost_gpu_s) + unsaved preemptions
    double stall_gpu_s = 0.0;
    double restore_gpu_s = 0.0;
    std::uint64_t checkpoints = 0;
    std::uint64_t preemptions = 0;
    std::uint64_t restart_preemptions = 0; ///< preemptions for a failed job's restart (second-order)
    double restart_preempted_gpu_s = 0.0;  ///< the GPU time of the work they lost
    double straggler_gpu_s = 0.0;          ///< GPU time computing lost to slow nodes
    double failure_rollback_gpu_s = 0.0;   ///< of lost_gpu_s: work the failures rolled back
    double detection_gpu_s = 0.0;          ///< of lost_gpu_s: from each failure until its recovery steps ended
    double restart_gpu_s = 0.0;            ///< of lost_gpu_s: from then until the job computed again
    double pretrain_lost_gpu_s = 0.0;      ///< lost_gpu_s of pretraining jobs only
    double pretrain_work_s = 0.0;
    double pretrain_wall_s = 0.0;
    std::uint64_t pretrain_jobs = 0;
    std::vector<double> other_queue_s; ///< queueing delays of GPU jobs other than pretraining
  };
  struct RunTotals {
    std::uint16_t cluster = 0;
    std::string type;
    std::uint32_t jobs = 0;
    std::uint32_t attempts = 0;
    std::uint32_t gpus = 0;
    std::vector<std::uint64_t> failures;
    double lost_gpu_s = 0.0;
    double stall_s = 0.0;
    double work_s = 0.0;
    double first_start_s = -1.0;
    double last_end_s = 0.0;
  };

  /// "lost_by_cause_gpu_hours": the GPU time failures cost, by cause (failure rollback, detection, restart;
  /// slow nodes; other jobs' work lost to preemptions for restarts).
  static std::string lost_by_cause(const Totals& t);

  std::vector<ClusterInfo> clusters_;
  std::vector<std::string> categories_;
  std::vector<Totals> totals_;
  std::vector<TraceStates> states_;                                 ///< per cluster: its GPU jobs as AcmeTrace rows
  std::map<std::pair<std::size_t, std::uint64_t>, RunTotals> runs_; ///< (cluster, run)
};

} // namespace acme::metrics
