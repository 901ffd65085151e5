#pragma once

#include "policies/recovery/manual_recovery.hpp"
#include "sim/config/node.hpp"
#include "sim/model/distribution.hpp"

namespace acme::policies {

/// `automatic`: Acme's fault-tolerant pretraining system (paper §6.1): log-based detection and
/// diagnosis, a two-round NCCL pair test to find the faulty node, isolation and an immediate restart
/// from the last good checkpoint. Defaults are assumptions consistent with the paper's description.
struct AutomaticRecoveryParams {
  double detect_crash_s = 30.0;    ///< log monitor notices a crashed job
  double detect_hang_s = 5 * 60.0; ///< ... or a stalled log (no training progress)
  model::Distribution diagnose{model::Distribution::Kind::LOGNORMAL, 2 * 60.0, 0.5}; ///< rules + LLM agent
  double pair_round_base_s = 60.0;     ///< one round of pairwise all-gather tests (pairs in parallel)
  double pair_round_per_node_s = 0.25; ///< ... growing with the job's node count
  std::uint32_t pair_rounds = 2;
  double human_share = 0.1;    ///< failures that still need a person (paper: ~90% less manual work)
  ManualRecoveryParams manual; ///< how those are handled

  static const ParamTable<AutomaticRecoveryParams>& table();
};

class AutomaticRecovery final : public RecoveryPolicy {
public:
  explicit AutomaticRecovery(AutomaticRecoveryParams params) : params_(params), manual_(params.manual) {}
  RecoveryPlan on_failure(const FailureNotice& failure, model::Rng& rng) const override;
  double pair_test_s(std::uint32_t nodes) const;

private:
  AutomaticRecoveryParams params_;
  ManualRecovery manual_;
};

} // namespace acme::policies
