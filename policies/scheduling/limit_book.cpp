#include "policies/scheduling/limit_book.hpp"

#include <cmath>

#include "policies/scheduling/policy_params.hpp"

namespace acme::policies {
namespace {

constexpr double MAX_LIMIT = 1e9; // as Slurm's 32-bit counts

/// Limits are whole numbers of jobs or GPUs.
void check_whole(const config::Node& node, const LimitParams& p) {
  for (const auto& [key, values] :
       {std::pair{"max_jobs_per_user", &p.max_jobs_per_user}, std::pair{"max_gpus_per_user", &p.max_gpus_per_user},
        std::pair{"max_gpus", &p.max_gpus}}) {
    for (double v : *values) {
      if (v != std::floor(v)) {
        node[key].fail("expected whole numbers (0: no limit)");
      }
    }
  }
}

std::uint64_t milli_of(double gpus) {
  return static_cast<std::uint64_t>(gpus) * model::MILLI_PER_GPU;
}

/// Whether `used` plus `need` passes a limit of `limit` (0: no limit).
bool over(std::uint64_t used, std::uint64_t need, std::uint64_t limit) {
  return limit > 0 && used + need > limit;
}

} // namespace

bool LimitParams::any() const {
  auto nonzero = [](const std::vector<double>& v) {
    for (double x : v) {
      if (x > 0.0) {
        return true;
      }
    }
    return false;
  };
  return user_max_gpus > 0 || user_max_jobs > 0 || nonzero(max_jobs_per_user) || nonzero(max_gpus_per_user) ||
         nonzero(max_gpus);
}

const ParamTable<LimitParams>& LimitParams::table() {
  using P = LimitParams;
  const Bounds limit{0.0, MAX_LIMIT};
  static const ParamTable<P> t =
      ParamTable<P>{
          type_route_param("qos_of", &P::qos_of,
                           "job classes that run under another class's QoS and share its limits, e.g. {eval: sft}; "
                           "unlisted classes: their own (Slurm: a QoS several kinds of job are submitted to)"),
          type_map_param("max_jobs_per_user", &P::max_jobs_per_user,
                         "running jobs per user and job class (Slurm QOS MaxJobsPerUser; 0: no limit)", limit),
          type_map_param("max_gpus_per_user", &P::max_gpus_per_user,
                         "GPUs per user and job class (Slurm QOS MaxTRESPerUser=gres/gpu; 0: no limit)", limit),
          type_map_param("max_gpus", &P::max_gpus,
                         "GPUs of a job class in all (Slurm QOS GrpTRES=gres/gpu; 0: no limit)", limit),
          count_param("user_max_gpus", &P::user_max_gpus,
                      "GPUs per user over all classes (Slurm association GrpTRES=gres/gpu; 0: no limit)", 0),
          count_param("user_max_jobs", &P::user_max_jobs,
                      "running jobs per user over all classes (Slurm association MaxJobs; 0: no limit)", 0)}
          .check(check_whole);
  return t;
}

std::optional<model::WaitReason> LimitBook::holds(const model::JobSpec& job) const {
  return job.is_cpu_job() ? std::nullopt : holds(job.type, job.user, job_milli(job));
}

std::optional<model::WaitReason> LimitBook::holds(model::JobType job_type, model::UserId job_user,
                                                  std::uint64_t need) const {
  std::size_t type = qos(job_type);
  Usage user;
  if (auto it = by_user_.find(model::to_index(job_user)); it != by_user_.end()) {
    user = it->second;
  }
  if (over(user.milli, need, milli_of(params_.user_max_gpus))) {
    return model::WaitReason::ASSOC_GRP_GPUS;
  }
  if (over(user.jobs, 1, params_.user_max_jobs)) {
    return model::WaitReason::ASSOC_MAX_JOBS;
  }
  Usage mine;
  if (auto it = by_qos_user_.find(qos_user(type, job_user)); it != by_qos_user_.end()) {
    mine = it->second;
  }
  if (over(mine.jobs, 1, static_cast<std::uint64_t>(params_.max_jobs_per_user[type]))) {
    return model::WaitReason::QOS_MAX_JOBS_PER_USER;
  }
  if (over(mine.milli, need, milli_of(params_.max_gpus_per_user[type]))) {
    return model::WaitReason::QOS_MAX_GPUS_PER_USER;
  }
  if (over(qos_milli_[type], need, milli_of(params_.max_gpus[type]))) {
    return model::WaitReason::QOS_GRP_GPUS;
  }
  return std::nullopt;
}

bool LimitBook::can_ever_run(const model::JobSpec& job) const {
  if (job.is_cpu_job()) {
    return true;
  }
  std::size_t type = qos(job.type);
  std::uint64_t need = job_milli(job);
  return !over(0, need, milli_of(params_.user_max_gpus)) && !over(0, need, milli_of(params_.max_gpus_per_user[type])) &&
         !over(0, need, milli_of(params_.max_gpus[type]));
}

void LimitBook::on_start(const RunningJob& job) {
  add(job, true);
}

void LimitBook::on_stop(const RunningJob& job) {
  add(job, false);
}

void LimitBook::add(const RunningJob& job, bool starting) {
  auto apply = [&](Usage& u) {
    if (starting) {
      u.jobs += 1;
      u.milli += job.milli;
    } else {
      u.jobs -= 1;
      u.milli -= job.milli;
    }
  };
  std::size_t type = qos(job.type);
  apply(by_qos_user_[qos_user(type, job.user)]);
  apply(by_user_[model::to_index(job.user)]);
  std::uint64_t& cls = qos_milli_[type];
  cls = starting ? cls + job.milli : cls - job.milli;
}

} // namespace acme::policies
