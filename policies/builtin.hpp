#pragma once

#include "policies/checkpoint/checkpoint_policy.hpp"
#include "policies/eval/eval_dispatch.hpp"
#include "policies/placement/placement_policy.hpp"
#include "policies/power/power_policy.hpp"
#include "policies/recovery/recovery_policy.hpp"
#include "policies/registry.hpp"
#include "policies/scheduling/scheduler.hpp"

namespace acme::policies {

/// Every registry of the run, filled explicitly (no static self-registration).
struct PolicyRegistries {
  Registry<Scheduler> schedulers{"scheduler"};
  Registry<PlacementPolicy> placements{"placement"};
  Registry<CheckpointPolicy> checkpoints{"checkpoint policy"};
  Registry<RecoveryPolicy> recoveries{"recovery policy"};
  Registry<EvalDispatch> eval_dispatches{"eval dispatch policy"};
  Registry<PowerPolicy> powers{"power policy"};
};

void register_builtin_schedulers(Registry<Scheduler>& registry);
void register_builtin_placements(Registry<PlacementPolicy>& registry);
void register_builtin_checkpoint_policies(Registry<CheckpointPolicy>& registry);
void register_builtin_recovery_policies(Registry<RecoveryPolicy>& registry);
void register_builtin_eval_dispatch(Registry<EvalDispatch>& registry);
void register_builtin_power_policies(Registry<PowerPolicy>& registry);
/// All families, as the CLI uses them.
PolicyRegistries make_builtin_registries();

} // namespace acme::policies
