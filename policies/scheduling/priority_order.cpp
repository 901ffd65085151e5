#include "policies/scheduling/priority_order.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "policies/scheduling/policy_params.hpp"

namespace acme::policies {

namespace {

void check_age_unit(const config::Node& node, const PriorityParams& p) {
  if (p.age_weight > 0.0 && p.max_age_s / p.age_weight < MIN_PRIORITY_AGE_UNIT_S) {
    config::Node at = node.is_map() && node["age_weight"].is_defined() ? node["age_weight"] : node;
    at.fail("age_weight " + format_number(p.age_weight) + " over max_age " + format_duration(p.max_age_s) +
            " makes the age term grow faster than " + format_number(1.0 / MIN_PRIORITY_AGE_UNIT_S) +
            " a second; expected age_weight <= max_age in ms");
  }
}

} // namespace

const ParamTable<PriorityParams>& PriorityParams::table() {
  using P = PriorityParams;
  static const Bounds weight{0.0, MAX_PRIORITY_WEIGHT};
  static const ParamTable<P> t =
      ParamTable<P>{
          number_param("type_weight", &P::type_weight, "weight of the job-class (QoS) factor", weight),
          type_map_param("type_factor", &P::type_factor,
                         "class factor in [0, 1] per job type (a map: pretrain, sft, mllm, eval, debug, other)",
                         Bounds::share()),
          number_param("age_weight", &P::age_weight, "weight of the age factor min(wait / max_age, 1)", weight),
          duration_param("max_age", &P::max_age_s, "wait at which the age factor saturates (Slurm PriorityMaxAge)",
                         Bounds::positive()),
          number_param("fairshare_weight", &P::fairshare_weight,
                       "weight of the user's fair-share factor 2^(-usage share / fair share)", weight),
          duration_param("fairshare_half_life", &P::fairshare_half_life_s,
                         "half-life of past GPU usage (Slurm PriorityDecayHalfLife)", Bounds::positive()),
          duration_param("recalc_interval", &P::recalc_interval_s,
                         "how often queued priorities are recomputed (Slurm PriorityCalcPeriod)")}
          .check(check_age_unit);
  return t;
}

double PriorityOrder::usage_at(const Usage& usage, double now_s) const {
  double dt = std::max(0.0, now_s - usage.at_s);
  double keep = std::exp2(-dt / params_.fairshare_half_life_s);
  double accrual_scale_s = params_.fairshare_half_life_s / std::numbers::ln2; // integral of the decay kernel
  return usage.decayed_gpu_s * keep + usage.running_gpus * accrual_scale_s * (1.0 - keep);
}

void PriorityOrder::change_running(Usage& usage, double now_s, double delta_gpus) {
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

QueueKey PriorityOrder::key(const model::JobEntry& entry, double now_s) const {
  return {-priority(entry.spec, now_s), entry.spec.submit_time_s, entry.spec.id};
}

std::int64_t PriorityOrder::base_term(model::JobType type) const {
  return std::llround(params_.type_weight * params_.type_factor[static_cast<std::size_t>(type)]);
}

std::int64_t PriorityOrder::fairshare_term(model::UserId user, double now_s) const {
  return std::llround(params_.fairshare_weight * fairshare_factor(user, now_s));
}

PriorityIndexParams PriorityOrder::index_params() const {
  std::int64_t units = std::llround(params_.age_weight);
  return {units > 0 ? params_.max_age_s / static_cast<double>(units) : params_.max_age_s, units};
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
