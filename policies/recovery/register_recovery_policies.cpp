// The failure-recovery family: one line per policy.
#include "policies/builtin.hpp"
#include "policies/recovery/automatic_recovery.hpp"
#include "policies/recovery/manual_recovery.hpp"

namespace acme::policies {

void register_builtin_recovery_policies(Registry<RecoveryPolicy>& r) {
  add_policy<ManualRecoveryParams>(
      r, "manual",
      "on-call people: detection depends on the local time of day, hangs show after a "
      "timeout, human diagnosis and isolation, then the job queues again",
      [](const auto& p, const PolicyContext&) { return std::make_unique<ManualRecovery>(p); });
  add_policy<AutomaticRecoveryParams>(
      r, "automatic",
      "log-based detection and diagnosis, two-round pair test to find the faulty node, isolation, immediate restart "
      "from the last good checkpoint",
      [](const auto& p, const PolicyContext&) { return std::make_unique<AutomaticRecovery>(p); });
}

} // namespace acme::policies
