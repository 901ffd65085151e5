// The `python` policies of a build without pybind11 or Python's development files: listed, with their
// parameters, and refusing to run with a message that says what to install.
#include "policies/python/policy_spec.hpp"
#include "policies/python/register_python.hpp"

namespace acme::policies::python {
namespace {

template <class Policy>
void add_unavailable(Registry<Policy>& registry, const char* family) {
  registry.add("python", std::string("a ") + family + " class of your Python file (not in this build)",
               PythonPolicyParams::table().docs(),
               [family](const config::Node& params, const PolicyContext&) -> std::unique_ptr<Policy> {
                 params.fail(std::string("this acme-sim was built without Python support; expected a build "
                                         "with pybind11 and Python's development files (tools/install_deps.sh "
                                         "installs them), or a C++ ") +
                             family);
               });
}

} // namespace

void register_python_policies(PolicyRegistries& registries) {
  add_unavailable(registries.schedulers, "scheduler");
  add_unavailable(registries.placements, "placement");
}

PolicyRegistries make_registries_with_python() {
  PolicyRegistries registries = make_builtin_registries();
  register_python_policies(registries);
  return registries;
}

} // namespace acme::policies::python
