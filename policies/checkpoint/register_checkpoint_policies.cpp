// The checkpoint-frequency family: one line per policy.
#include "policies/builtin.hpp"
#include "policies/checkpoint/interval_policies.hpp"

namespace acme::policies {

void register_builtin_checkpoint_policies(Registry<CheckpointPolicy>& r) {
  add_policy<NoParams>(r, "none", "never checkpoint: a failure loses the whole attempt",
                       [](const NoParams&, const PolicyContext&) { return std::make_unique<NoCheckpoint>(); });
  add_policy<FixedIntervalParams>(
      r, "fixed", "a checkpoint every `interval` of computation",
      [](const auto& p, const PolicyContext&) { return std::make_unique<FixedIntervalCheckpoint>(p.interval_s); });
  add_policy<OptimalIntervalParams>(
      r, "young_daly", "Young's interval sqrt(2 C M): C the job's checkpoint stall, M its mean time between failures",
      [](const auto& p, const PolicyContext&) {
        return std::make_unique<OptimalIntervalCheckpoint>(false, p.min_interval_s);
      });
  add_policy<OptimalIntervalParams>(r, "daly", "Daly's higher-order interval (Daly 2006, eq. 37)",
                                    [](const auto& p, const PolicyContext&) {
                                      return std::make_unique<OptimalIntervalCheckpoint>(true, p.min_interval_s);
                                    });
}

} // namespace acme::policies
