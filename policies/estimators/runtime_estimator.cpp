#include "policies/estimators/runtime_estimator.hpp"

#include "sim/model/units.hpp"

namespace acme::policies {
namespace {

constexpr int USER_BITS = 32;

} // namespace

const ParamTable<EstimatorParams>& EstimatorParams::table() {
  static const ParamTable<EstimatorParams> t{
      choice_param("estimator", &EstimatorParams::kind,
                   {{"oracle", EstimatorKind::ORACLE},
                    {"requested", EstimatorKind::REQUESTED},
                    {"type_user", EstimatorKind::TYPE_USER}},
                   "runtime estimates: oracle (real duration), requested (trace wall-time request, else type_user), "
                   "type_user (mean of finished runs of the same type and user, then type, then estimate_default)"),
      duration_param("estimate_default", &EstimatorParams::default_s,
                     "estimate before any run of the type has finished (Seren's mean GPU-job run time)",
                     Bounds::positive())};
  return t;
}

std::uint64_t RuntimeEstimator::key(model::JobType type, model::UserId user) {
  return (static_cast<std::uint64_t>(type) << USER_BITS) | model::to_index(user);
}

double RuntimeEstimator::learnt_s(model::JobType type, model::UserId user) const {
  if (auto it = by_type_user_.find(key(type, user)); it != by_type_user_.end() && it->second.count > 0) {
    return it->second.sum_s / static_cast<double>(it->second.count);
  }
  const Mean& t = by_type_[static_cast<std::size_t>(type)];
  if (t.count > 0) {
    return t.sum_s / static_cast<double>(t.count);
  }
  return params_.default_s;
}

double RuntimeEstimator::estimate_s(const model::JobSpec& job) const {
  switch (params_.kind) {
  case EstimatorKind::ORACLE:
    return job.duration_s;
  case EstimatorKind::REQUESTED:
    if (job.requested_time_s != model::UNKNOWN_TIME_S && job.requested_time_s > 0.0) {
      return job.requested_time_s;
    }
    return learnt_s(job.type, job.user);
  case EstimatorKind::TYPE_USER:
    return learnt_s(job.type, job.user);
  }
  return params_.default_s;
}

void RuntimeEstimator::observe(model::JobType type, model::UserId user, double ran_s) {
  if (params_.kind == EstimatorKind::ORACLE || ran_s < 0.0) {
    return;
  }
  Mean& m = by_type_user_[key(type, user)];
  m.sum_s += ran_s;
  ++m.count;
  Mean& t = by_type_[static_cast<std::size_t>(type)];
  t.sum_s += ran_s;
  ++t.count;
}

} // namespace acme::policies
