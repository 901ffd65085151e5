#pragma once

#include <memory>

#include "policies/placement/placement_policy.hpp"
#include "policies/python/policy_spec.hpp"
#include "policies/registry.hpp"

namespace acme::policies::python {

/// A placement policy written in Python (`placement: {name: python, module: ..., class: ...}`): the
/// user's place(job, view) over what the calling scheduler still has free. Its answer is checked
/// (check_placement) before the scheduler sees it; a Python exception or a placement that does not
/// cover the job on free GPUs throws ConfigError located in the user's file.
class PythonPlacement final : public PlacementPolicy {
public:
  PythonPlacement(PythonPolicySpec spec, const PolicyContext& context);
  ~PythonPlacement() override;
  PythonPlacement(const PythonPlacement&) = delete;
  PythonPlacement& operator=(const PythonPlacement&) = delete;

  std::optional<model::Placement> place(const model::JobSpec& job, const FreeResources& free) override;

private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace acme::policies::python
