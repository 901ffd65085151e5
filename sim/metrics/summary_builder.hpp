#pragma once

#include <array>
#include <string>
#include <vector>

#include "sim/metrics/fairness.hpp"
#include "sim/metrics/job_record.hpp"
#include "sim/metrics/stats.hpp"
#include "sim/model/name_table.hpp"

namespace acme::metrics {

class EvalStats;
class FaultStats;
class NetworkStats;
class PowerStats;
struct RecorderOptions;
struct RunInfo;

/// Accumulates per-cluster, per-class figures and renders summary.json.
class SummaryBuilder {
public:
  /// Classes: the six GPU job types, then CPU jobs.
  static constexpr std::size_t CLASS_COUNT = model::JOB_TYPE_COUNT + 1;
  static constexpr std::size_t CPU_CLASS = model::JOB_TYPE_COUNT;

  /// `users` names the jobs' users (the fairness blocks); it must outlive the builder.
  SummaryBuilder(const std::vector<ClusterInfo>& clusters, const model::NameTable& users);

  void add(const JobRecord& record);
  void add_busy_gpu_seconds(std::uint16_t cluster, double gpu_seconds);
  /// `network` (optional): the network blocks, when the fluid network model ran.
  std::string render(const RecorderOptions& options, const RunInfo& info, const FaultStats& faults,
                     const EvalStats& evals, const PowerStats& power, NetworkStats* network = nullptr);

private:
  /// The run's overrides and every input file with its content hash (summary.json "provenance").
  static std::string provenance_json(const RecorderOptions& options);
  struct ClassStats {
    std::uint64_t jobs = 0;
    std::uint64_t rejected = 0;
    std::array<std::uint64_t, model::JOB_STATE_COUNT> states{};
    std::vector<double> queue_s;
    std::vector<double> jct_s;
    std::vector<double> recorded_queue_s;
    double gpu_seconds = 0.0;
    double energy_J = 0.0;
    std::array<double, model::WAIT_REASON_COUNT> wait_s{}; ///< waiting time by reason, all jobs
    UserTally users;                                       ///< per user: queued jobs, queueing delay, GPU time

    /// Adds `other`'s jobs and sums (every GPU job type into the cluster's all_gpu class).
    void merge(const ClassStats& other);
  };
  struct ClusterStats {
    std::array<ClassStats, CLASS_COUNT> classes;
    double busy_gpu_seconds = 0.0;
  };
  /// `with_fairness`: add the class's "fairness" object (GPU job types; not CPU jobs nor all_gpu, whose
  /// figures are the cluster's own "fairness").
  std::string render_class(ClassStats& stats, bool with_fairness) const;
  std::string render_cluster(std::size_t c, const RunInfo& info, const FaultStats& faults, const EvalStats& evals,
                             const PowerStats& power, NetworkStats* network);

  std::vector<ClusterInfo> clusters_;
  const model::NameTable* users_;
  std::vector<ClusterStats> stats_;
};

} // namespace acme::metrics
