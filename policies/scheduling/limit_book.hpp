#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "policies/param_table.hpp"
#include "policies/scheduling/policy_params.hpp"
#include "policies/scheduling/running_jobs.hpp"
#include "sim/model/job.hpp"
#include "sim/model/wait_reason.hpp"

namespace acme::policies {

/// Slurm's QoS and association limits on running jobs (sacctmgr(1), resource_limits.html). Each job class
/// (type) runs under a QoS, by default its own; `qos_of` lets classes share one (`{eval: sft}`: evaluation
/// jobs run under SFT's QoS and count against its limits). Per QoS: MaxJobsPerUser, MaxTRESPerUser=gres/gpu
/// and GrpTRES=gres/gpu, keyed by the QoS's class; per user over all classes (the user's association),
/// GrpTRES=gres/gpu and MaxJobs. 0 means no limit, as in Slurm, and every limit is off by default. A job a
/// limit holds waits with that limit's reason and does not block the jobs behind it.
struct LimitParams {
  TypeRoute qos_of = model::ALL_JOB_TYPES; ///< the class whose QoS a class runs under
  std::vector<double> max_jobs_per_user = std::vector<double>(model::JOB_TYPE_COUNT, 0.0); ///< QOS MaxJobsPerUser
  std::vector<double> max_gpus_per_user = std::vector<double>(model::JOB_TYPE_COUNT, 0.0); ///< QOS MaxTRESPerUser
  std::vector<double> max_gpus = std::vector<double>(model::JOB_TYPE_COUNT, 0.0);          ///< QOS GrpTRES
  std::uint32_t user_max_gpus = 0; ///< association GrpTRES=gres/gpu of every user
  std::uint32_t user_max_jobs = 0; ///< association MaxJobs of every user

  bool any() const;
  static const ParamTable<LimitParams>& table();
};

/// What runs against the limits: running jobs and GPUs per (QoS, user), per QoS and per user.
class LimitBook {
public:
  explicit LimitBook(LimitParams params) : params_(std::move(params)) {}

  /// The limit that holds `job` back now, if any (the first of: the user's association GPUs and jobs, the
  /// QoS's jobs and GPUs per user, the QoS's GPUs).
  std::optional<model::WaitReason> holds(const model::JobSpec& job) const;
  /// holds() for a GPU job of `type` and `user` needing `milli` thousandths of a GPU.
  std::optional<model::WaitReason> holds(model::JobType type, model::UserId user, std::uint64_t milli) const;
  void on_start(const RunningJob& job);
  void on_stop(const RunningJob& job);
  /// False when the job could never run under the limits even alone (it asks for more GPUs than one).
  bool can_ever_run(const model::JobSpec& job) const;
  const LimitParams& params() const { return params_; }

private:
  struct Usage {
    std::uint32_t jobs = 0;
    std::uint64_t milli = 0;
  };
  static std::uint64_t qos_user(std::size_t qos, model::UserId user) {
    return (static_cast<std::uint64_t>(qos) << 48U) | model::to_index(user);
  }
  std::size_t qos(model::JobType type) const {
    return static_cast<std::size_t>(params_.qos_of[static_cast<std::size_t>(type)]);
  }
  void add(const RunningJob& job, bool starting);

  LimitParams params_;
  std::unordered_map<std::uint64_t, Usage> by_qos_user_;
  std::unordered_map<std::uint64_t, Usage> by_user_;
  std::vector<std::uint64_t> qos_milli_ = std::vector<std::uint64_t>(model::JOB_TYPE_COUNT, 0);
};

} // namespace acme::policies
