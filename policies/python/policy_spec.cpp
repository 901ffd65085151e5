#include "policies/python/policy_spec.hpp"

#include <filesystem>

namespace acme::policies::python {
namespace {

using P = PythonPolicyParams;

Param<P> text_param(std::string key, std::string P::*field, std::string doc) {
  return {std::move(key), std::move(doc), [field](const config::Node& v, P& p) { p.*field = v.as_string(); },
          [field](const P& p) { return (p.*field).empty() ? std::string("(required)") : p.*field; }};
}

} // namespace

const ParamTable<PythonPolicyParams>& PythonPolicyParams::table() {
  static const ParamTable<P> t = ParamTable<P>{
      text_param("module", &P::module, "the Python file defining the class, relative to the config file"),
      text_param("class", &P::class_name, "the class, built as Class(params, context)"),
      Param<P>{"params", "a mapping handed to the class as a dict",
               [](const config::Node& v, P& p) {
                 v.expect_map();
                 p.params = v;
               },
               [](const P&) {
                 return std::string("{}");
               }}}.check([](const config::Node& node, const P& p) {
    if (p.module.empty() || p.class_name.empty()) {
      node.fail("a python policy needs `module:` (a .py file) and `class:`; expected e.g. {name: python, "
                "module: my_scheduler.py, class: MyScheduler}");
    }
  });
  return t;
}

PythonPolicySpec parse_python_spec(const config::Node& node, const std::string& family, const std::string& base_dir) {
  PythonPolicyParams params = PythonPolicyParams::table().parse(node);
  PythonPolicySpec spec;
  spec.family = family;
  spec.node = node;
  std::filesystem::path path(params.module);
  if (path.is_relative() && !base_dir.empty()) {
    path = (std::filesystem::path(base_dir) / path).lexically_normal();
  }
  spec.module_path = path.string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    node["module"].fail("cannot read \"" + spec.module_path + "\"; expected a Python file (relative to the config)");
  }
  spec.class_name = params.class_name;
  return spec;
}

} // namespace acme::policies::python
