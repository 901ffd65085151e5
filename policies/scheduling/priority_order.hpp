#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "policies/param_table.hpp"
#include "policies/scheduling/priority_index.hpp"
#include "policies/scheduling/queue_order.hpp"
#include "sim/config/node.hpp"
#include "sim/model/units.hpp"

namespace acme::policies {

// Slurm multifactor defaults (slurm.conf(5)): PriorityCalcPeriod 5 min, PriorityDecayHalfLife 7 days,
// PriorityMaxAge 7 days.
inline constexpr double DEFAULT_PRIORITY_RECALC_S = 5.0 * model::SECONDS_PER_MINUTE;
inline constexpr double DEFAULT_FAIRSHARE_HALF_LIFE_S = model::SECONDS_PER_WEEK;
inline constexpr double DEFAULT_PRIORITY_MAX_AGE_S = model::SECONDS_PER_WEEK;
// Weights (Slurm's PriorityWeight* default to 0 and every site sets its own): the job class dominates
// (the paper: pretraining first, evaluation and best-effort jobs at low priority), then fair share and
// age break ties within a class. A factor is in [0, 1], so a class step of 0.1 outweighs both others.
inline constexpr double DEFAULT_TYPE_WEIGHT = 100000.0;
inline constexpr double DEFAULT_FAIRSHARE_WEIGHT = 5000.0;
inline constexpr double DEFAULT_AGE_WEIGHT = 5000.0;
// Class (QoS) factor per job type, in ALL_JOB_TYPES order (pretrain, sft, mllm, eval, debug, other):
// pretraining highest; evaluation and "other" (best effort) lowest (paper §3, data/README.md).
inline constexpr double TYPE_FACTOR_PRETRAIN = 1.0;
inline constexpr double TYPE_FACTOR_DEVELOPMENT = 0.6; ///< SFT, MLLM, debug
inline constexpr double TYPE_FACTOR_LOW = 0.2;         ///< evaluation, other
/// Slurm's PriorityWeight* are 32-bit integers; a round bound below their maximum.
inline constexpr double MAX_PRIORITY_WEIGHT = 1e9;
/// The shortest age unit (max_age / age_weight): the age term grows by at most 1,000 a second, so that
/// every priority stays exact in integers over any run (PRIORITY_INDEX_MAX_TERM).
inline constexpr double MIN_PRIORITY_AGE_UNIT_S = 1e-3;

/// Slurm-like multifactor priority: type_weight x class factor of the job type + age_weight x
/// min(age / max_age, 1) + fairshare_weight x 2^(-usage share / fair share) of the job's user, where usage
/// is GPU-seconds decayed with a half-life and every user seen has an equal fair share. As in Slurm, the
/// queue orders jobs by this sum as an integer (MultifactorQueue).
struct PriorityParams {
  double type_weight = DEFAULT_TYPE_WEIGHT;
  double age_weight = DEFAULT_AGE_WEIGHT;
  double fairshare_weight = DEFAULT_FAIRSHARE_WEIGHT;
  std::vector<double> type_factor = {TYPE_FACTOR_PRETRAIN, TYPE_FACTOR_DEVELOPMENT, TYPE_FACTOR_DEVELOPMENT,
                                     TYPE_FACTOR_LOW,      TYPE_FACTOR_DEVELOPMENT, TYPE_FACTOR_LOW};
  double max_age_s = DEFAULT_PRIORITY_MAX_AGE_S;
  double fairshare_half_life_s = DEFAULT_FAIRSHARE_HALF_LIFE_S;
  double recalc_interval_s = DEFAULT_PRIORITY_RECALC_S;

  /// The multifactor keys (Slurm's names in the documentation).
  static const ParamTable<PriorityParams>& table();
};

/// The multifactor priority: the users' decayed usage, the factors, and when to recompute (every
/// recalc_interval, Slurm's PriorityCalcPeriod). The queue that keeps jobs in this order incrementally is
/// MultifactorQueue; key() is the continuous priority, for a queue that re-sorts.
class PriorityOrder final : public QueueOrder {
public:
  explicit PriorityOrder(PriorityParams params) : params_(std::move(params)) {}

  QueueKey key(const model::JobEntry& entry, double now_s) const override;
  bool refresh(double now_s) override;
  void on_start(const RunningJob& job, double now_s) override;
  void on_stop(const RunningJob& job, double now_s) override;

  double priority(const model::JobSpec& job, double now_s) const;
  /// priority() from a job's fields and its user's fair-share factor.
  double priority(model::JobType type, double submit_time_s, double fairshare, double now_s) const;
  /// 2^(-usage share / fair share) of `user` in [0, 1]; 1 for a user without usage.
  double fairshare_factor(model::UserId user, double now_s) const;

  /// The integer terms of MultifactorQueue: round(type_weight x class factor), round(fairshare_weight x
  /// fairshare_factor), and the age in units of max_age / age_weight capped at age_weight units.
  std::int64_t base_term(model::JobType type) const;
  std::int64_t fairshare_term(model::UserId user, double now_s) const;
  PriorityIndexParams index_params() const;

private:
  /// GPU-seconds decayed with the half-life, accruing from GPUs held; brought forward lazily.
  struct Usage {
    double decayed_gpu_s = 0.0;
    double running_gpus = 0.0;
    double at_s = 0.0;
  };
  double usage_at(const Usage& usage, double now_s) const;
  void change_running(Usage& usage, double now_s, double delta_gpus);

  PriorityParams params_;
  std::unordered_map<model::UserId, Usage> users_;
  Usage total_;
  double next_recalc_s_ = 0.0;
};

} // namespace acme::policies
