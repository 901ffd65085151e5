#pragma once

#include "policies/param_table.hpp"
#include "policies/recovery/recovery_policy.hpp"
#include "sim/config/node.hpp"
#include "sim/model/distribution.hpp"

namespace acme::policies {

/// `manual`: on-call people. Parameters (defaults are assumptions: Acme's pre-automation practice is
/// described, not measured, in the paper §6.1):
struct ManualRecoveryParams {
  double work_start_s = 9 * 3600.0; ///< working hours start, local time
  double work_end_s = 21 * 3600.0;  ///< working hours end, local time
  bool weekends_off = true;         ///< Saturday and Sunday count as off hours
  model::Distribution day_detect{model::Distribution::Kind::LOGNORMAL, 20 * 60.0, 0.8}; ///< in working hours
  model::Distribution night_detect{model::Distribution::Kind::LOGNORMAL, 4 * 3600.0,
                                   0.8}; ///< off hours, capped by the next working morning
  double hang_timeout_s = 30 * 60.0; ///< a hang shows only after the collective timeout (NCCL watchdog default 30 min)
  model::Distribution diagnose{model::Distribution::Kind::LOGNORMAL, 45 * 60.0, 0.7};
  model::Distribution isolate{model::Distribution::Kind::LOGNORMAL, 30 * 60.0, 0.5};

  static const ParamTable<ManualRecoveryParams>& table();
};

class ManualRecovery final : public RecoveryPolicy {
public:
  explicit ManualRecovery(ManualRecoveryParams params) : params_(params) {}
  RecoveryPlan on_failure(const FailureNotice& failure, model::Rng& rng) const override;
  /// Seconds from `time_of_day_s` on `weekday` until working hours; 0 inside them.
  double until_working_hours_s(double time_of_day_s, int weekday) const;

private:
  ManualRecoveryParams params_;
};

} // namespace acme::policies
