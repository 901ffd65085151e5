#include "policies/python/register_python.hpp"

#include <filesystem>

#include "policies/python/python_placement.hpp"
#include "policies/python/python_scheduler.hpp"

namespace acme::policies::python {
namespace {

std::vector<ParamDoc> python_docs(const char* method) {
  return {{"module", "(required)", "the Python file defining the class, relative to the config file"},
          {"class", "(required)", std::string("the class: built as Class(params, context), called as ") + method},
          {"params", "{}", "a mapping handed to the class as a dict"}};
}

} // namespace

PythonPolicySpec parse_python_spec(const config::Node& node, const std::string& family, const std::string& base_dir) {
  expect_policy_keys(node, {"module", "class", "params"});
  if (!node.is_map() || !node["module"].is_defined() || !node["class"].is_defined()) {
    node.fail("a python " + family +
              " needs `module:` (a .py file) and `class:`; expected e.g. {name: python, "
              "module: my_" +
              family + ".py, class: My" + (family == "scheduler" ? "Scheduler" : "Placement") + "}");
  }
  PythonPolicySpec spec;
  spec.family = family;
  spec.node = node;
  std::filesystem::path path(node["module"].as_string());
  if (path.is_relative() && !base_dir.empty()) {
    path = (std::filesystem::path(base_dir) / path).lexically_normal();
  }
  spec.module_path = path.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    node["module"].fail("cannot read \"" + spec.module_path + "\"; expected a Python file (relative to the config)");
  }
  spec.class_name = node["class"].as_string();
  if (node["params"].is_defined() && !node["params"].is_map()) {
    node["params"].fail("expected a mapping of parameters, such as {threshold: 3250}");
  }
  return spec;
}

void register_python_policies(PolicyRegistries& registries) {
  registries.schedulers.add(
      "python", "a scheduler class of your Python file: on_events(events, view) -> decisions",
      python_docs("on_events(events, view)"), [](const config::Node& params, const PolicyContext& context) {
        return std::make_unique<PythonScheduler>(parse_python_spec(params, "scheduler", context.base_dir), context);
      });
  registries.placements.add(
      "python", "a placement class of your Python file: place(job, view) -> placement", python_docs("place(job, view)"),
      [](const config::Node& params, const PolicyContext& context) {
        return std::make_unique<PythonPlacement>(parse_python_spec(params, "placement", context.base_dir), context);
      });
}

PolicyRegistries make_registries_with_python() {
  PolicyRegistries registries = make_builtin_registries();
  register_python_policies(registries);
  return registries;
}

} // namespace acme::policies::python
