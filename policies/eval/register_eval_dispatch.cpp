// The evaluation-dispatch family: one line per policy.
#include "policies/builtin.hpp"
#include "policies/eval/coupled_dispatch.hpp"
#include "policies/eval/trial_coordinator.hpp"

namespace acme::policies {

void register_builtin_eval_dispatch(Registry<EvalDispatch>& r) {
  add_policy<CoupledParams>(r, "coupled",
                            "one GPU job per dataset trial doing all phases on its GPU: model load from remote storage "
                            "(contended node NIC), preprocessing, inference, metrics with the GPU idle",
                            [](const auto& p, const PolicyContext&) { return std::make_unique<CoupledDispatch>(p); });
  add_policy<TrialCoordinatorParams>(
      r, "decoupled",
      "trial coordinator: one job per node pre-loads the model once into host memory, GPU lanes run packed or split "
      "trials (round-robin over a queue sorted by known runtimes, long metrics first), metrics run as CPU jobs",
      [](const auto& p, const PolicyContext&) { return std::make_unique<TrialCoordinator>(p); });
}

} // namespace acme::policies
