#pragma once

#include "policies/checkpoint/checkpoint_policy.hpp"
#include "policies/param_table.hpp"
#include "sim/config/node.hpp"

namespace acme::policies {

/// `none`: never checkpoints (a failure loses the whole attempt).
class NoCheckpoint final : public CheckpointPolicy {
public:
  double interval_s(const CheckpointSituation&) const override { return NEVER_S; }
};

/// `fixed`'s parameters: the interval is required.
struct FixedIntervalParams {
  double interval_s = 0.0; ///< 0: not given

  static const ParamTable<FixedIntervalParams>& table();
};

/// `young_daly`'s and `daly`'s parameters.
struct OptimalIntervalParams {
  double min_interval_s = 60.0; ///< never checkpoint more often than once a minute

  static const ParamTable<OptimalIntervalParams>& table();
};

/// `fixed`: a checkpoint every `interval` of computation.
class FixedIntervalCheckpoint final : public CheckpointPolicy {
public:
  explicit FixedIntervalCheckpoint(double interval_s) : interval_s_(interval_s) {}
  double interval_s(const CheckpointSituation&) const override { return interval_s_; }

private:
  double interval_s_;
};

/// `young_daly` (first order) and `daly` (higher order), from the job's C and M; bounded below by
/// `min_interval` so a tiny C never makes the job checkpoint continuously.
class OptimalIntervalCheckpoint final : public CheckpointPolicy {
public:
  OptimalIntervalCheckpoint(bool higher_order, double min_interval_s)
      : higher_order_(higher_order)
      , min_interval_s_(min_interval_s) {}
  double interval_s(const CheckpointSituation& s) const override;

private:
  bool higher_order_;
  double min_interval_s_;
};

} // namespace acme::policies
