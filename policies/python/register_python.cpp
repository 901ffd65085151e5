#include "policies/python/register_python.hpp"

#include "policies/python/python_placement.hpp"
#include "policies/python/python_scheduler.hpp"

namespace acme::policies::python {

void register_python_policies(PolicyRegistries& registries) {
  registries.schedulers.add(
      "python", "a scheduler class of your Python file: on_events(events, view) -> decisions",
      PythonPolicyParams::table().docs(), [](const config::Node& params, const PolicyContext& context) {
        return std::make_unique<PythonScheduler>(parse_python_spec(params, "scheduler", context.base_dir), context);
      });
  registries.placements.add(
      "python", "a placement class of your Python file: place(job, view) -> placement",
      PythonPolicyParams::table().docs(), [](const config::Node& params, const PolicyContext& context) {
        return std::make_unique<PythonPlacement>(parse_python_spec(params, "placement", context.base_dir), context);
      });
}

PolicyRegistries make_registries_with_python() {
  PolicyRegistries registries = make_builtin_registries();
  register_python_policies(registries);
  return registries;
}

} // namespace acme::policies::python
