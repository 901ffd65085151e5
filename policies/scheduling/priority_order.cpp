#include "policies/scheduling/priority_order.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "policies/scheduling/policy_params.hpp"

namespace acme::policies {

const ParamTable<PriorityParams>& PriorityParams::table() {
  using P = PriorityParams;
  static const ParamTable<P> t{
      number_param("type_weight", &P::type_weight, "weight of the job-class (QoS) factor"),
      type_map_param("type_factor", &P::type_factor,
                     "class factor in [0, 1] per job type (a map: pretrain, sft, mllm, eval, debug, other)",
                     Bounds::share()),
      number_param("age_weight", &P::age_weight, "weight of the age factor min(wait / max_age, 1)"),
      duration_param("max_age", &P::max_age_s, "wait at which the age factor saturates (Slurm PriorityMaxAge)",
                     Bounds::positive()),
      number_param("fairshare_weight", &P::fairshare_weight,
                   "weight of the user's fair-share factor 2^(-usage share / fair share)"),
      duration_param("fairshare_half_life", &P::fairshare_half_life_s,
                     "half-life of past GPU usage (Slurm PriorityDecayHalfLife)", Bounds::positive()),
      duration_param("recalc_interval", &P::recalc_interval_s,
                     "how often queued priorities are recomputed (Slurm PriorityCalcPeriod)")};
  return t;
}

double PriorityOrder::usage_at(const Usage& usage, double now_s) const {
  double dt = std::max(0.0, now_s - usage.at_s);
  double keep = std::exp2(-dt / params_.fairshare_half_life_s);
  double accrual_scale_s = params_.fairshare_half_life_s / std::numbers::ln2; // integral of the decay kernel
  return usage.decayed_gpu_s * keep + usage.running_gpus * accrual_scale_s * (1.0 - keep);
}

void PriorityOrder::change_running(Usage& usage, double now_s, double delta_gpus) {
  fairshare_cache_.clear();
  usage.decayed_gpu_s = usage_at(usage, now_s);
  usage.at_s = now_s;
  usage.running_gpus = std::max(0.0, usage.running_gpus + delta_gpus);
}

double PriorityOrder::fairshare_factor(model::UserId user, double now_s) const {
  auto it = users_.find(user);
  double total_gpu_s = usage_at(total_, now_s);
  if (it == users_.end() || total_gpu_s <= 0.0) {
    return 1.0;
  }
  double usage_share = usage_at(it->second, now_s) / total_gpu_s;
  double fair_share = 1.0 / static_cast<double>(users_.size());
  return std::exp2(-usage_share / fair_share);
}

double PriorityOrder::priority(const model::JobSpec& job, double now_s) const {
  return priority(job.type, job.submit_time_s, fairshare_factor(job.user, now_s), now_s);
}

double PriorityOrder::priority(model::JobType type, double submit_time_s, double fairshare, double now_s) const {
  double age = std::clamp((now_s - submit_time_s) / params_.max_age_s, 0.0, 1.0);
  return params_.type_weight * params_.type_factor[static_cast<std::size_t>(type)] + params_.age_weight * age +
         params_.fairshare_weight * fairshare;
}

QueueKey PriorityOrder::rekey(const QueuedJob& job, double now_s) {
  if (fairshare_at_s_ != now_s) {
    fairshare_cache_.clear();
    fairshare_at_s_ = now_s;
  }
  auto [it, fresh] = fairshare_cache_.try_emplace(job.user, 0.0);
  if (fresh) {
    it->second = fairshare_factor(job.user, now_s);
  }
  return {-priority(job.type, job.submit_time_s, it->second, now_s), job.submit_time_s, job.id};
}

QueueKey PriorityOrder::key(const model::JobEntry& entry, double now_s) const {
  return {-priority(entry.spec, now_s), entry.spec.submit_time_s, entry.spec.id};
}

bool PriorityOrder::refresh(double now_s) {
  if (now_s < next_recalc_s_) {
    return false;
  }
  next_recalc_s_ = now_s + params_.recalc_interval_s;
  return true;
}

void PriorityOrder::on_start(const RunningJob& job, double now_s) {
  double gpus = static_cast<double>(job.milli) / model::MILLI_PER_GPU;
  change_running(users_[job.user], now_s, gpus);
  change_running(total_, now_s, gpus);
}

void PriorityOrder::on_stop(const RunningJob& job, double now_s) {
  double gpus = static_cast<double>(job.milli) / model::MILLI_PER_GPU;
  change_running(users_[job.user], now_s, -gpus);
  change_running(total_, now_s, -gpus);
}

} // namespace acme::policies
