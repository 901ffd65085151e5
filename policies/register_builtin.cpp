// The registries of every policy family; each family registers its policies in its own folder
// (scheduling/register_schedulers.cpp, placement/register_placements.cpp, ...).
#include "policies/builtin.hpp"

namespace acme::policies {

PolicyRegistries make_builtin_registries() {
  PolicyRegistries r;
  register_builtin_schedulers(r.schedulers);
  register_builtin_placements(r.placements);
  register_builtin_checkpoint_policies(r.checkpoints);
  register_builtin_recovery_policies(r.recoveries);
  register_builtin_eval_dispatch(r.eval_dispatches);
  register_builtin_power_policies(r.powers);
  return r;
}

} // namespace acme::policies
