#pragma once

#include <memory>

#include "policies/python/policy_spec.hpp"
#include "policies/registry.hpp"
#include "policies/scheduling/scheduler.hpp"

namespace acme::policies::python {

/// A scheduler written in Python (`scheduler: {name: python, module: ..., class: ...}`): one call of
/// the user's on_events(events, view) per scheduling instant, with the instant's events as a list. Its
/// decisions are checked (DecisionCheck) before they reach the engine; a Python exception or an invalid
/// decision throws ConfigError located in the user's file.
class PythonScheduler final : public Scheduler {
public:
  /// Imports the module and builds the instance (ConfigError on failure).
  PythonScheduler(PythonPolicySpec spec, const PolicyContext& context);
  ~PythonScheduler() override;
  PythonScheduler(const PythonScheduler&) = delete;
  PythonScheduler& operator=(const PythonScheduler&) = delete;

  std::vector<model::Decision> on_events(std::span<const model::Event> events,
                                         const model::ClusterView& cluster) override;

private:
  struct State; ///< the Python objects (pybind11 stays out of this header)
  std::unique_ptr<State> state_;
};

} // namespace acme::policies::python
