#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "policies/param_table.hpp"
#include "sim/config/node.hpp"
#include "sim/model/job.hpp"

namespace acme::policies {

/// Where a scheduler's runtime estimates come from (backfilling, shortest-job-first).
enum class EstimatorKind : std::uint8_t {
  ORACLE,    ///< the job's real service time (JobSpec::duration_s): an upper bound on what estimates can do
  REQUESTED, ///< the user's wall-time request when the trace has one (SWF), else TYPE_USER
  TYPE_USER, ///< mean of finished runs of the same (type, user), then of the type, then a default
};

/// Mean GPU-job run time on Seren, 1,414 s (data/acme/cluster_summary.csv, avg_run_time_gpu): the estimate
/// for a job type nothing has been learnt about yet.
inline constexpr double DEFAULT_RUNTIME_ESTIMATE_S = 1414.0;

/// The estimator keys a scheduler accepts (its table includes this one).
struct EstimatorParams {
  EstimatorKind kind = EstimatorKind::REQUESTED;
  double default_s = DEFAULT_RUNTIME_ESTIMATE_S; ///< estimate before anything finished (TYPE_USER)

  /// `estimator` and `estimate_default`.
  static const ParamTable<EstimatorParams>& table();
};

/// Runtime estimates for queued and running jobs. TYPE_USER learns from jobs that end as the workload
/// says (EndCause::WORKLOAD); the scheduler reports them with observe().
class RuntimeEstimator {
public:
  explicit RuntimeEstimator(EstimatorParams params = {}) : params_(params) {}

  /// Estimated total service time of `job` in seconds (> 0 unless the oracle says 0).
  double estimate_s(const model::JobSpec& job) const;
  /// A job of `type` by `user` ran for `ran_s` seconds in all and ended as its workload says.
  void observe(model::JobType type, model::UserId user, double ran_s);

  const EstimatorParams& params() const { return params_; }

private:
  struct Mean {
    double sum_s = 0.0;
    std::uint64_t count = 0;
  };
  double learnt_s(model::JobType type, model::UserId user) const;
  static std::uint64_t key(model::JobType type, model::UserId user);

  EstimatorParams params_;
  std::unordered_map<std::uint64_t, Mean> by_type_user_;
  std::array<Mean, model::JOB_TYPE_COUNT> by_type_{};
};

} // namespace acme::policies
