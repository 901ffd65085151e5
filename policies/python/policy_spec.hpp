#pragma once

#include <string>

#include "policies/param_table.hpp"
#include "sim/config/node.hpp"

namespace acme::policies::python {

/// The keys of a `python` policy, declared once: parsing, the unknown-key check and `acme-sim list`.
struct PythonPolicyParams {
  std::string module;     ///< the Python file, as written (relative to the config file)
  std::string class_name; ///< `class:`
  config::Node params;    ///< `params:`, a mapping (undefined when absent)

  static const ParamTable<PythonPolicyParams>& table();
};

/// A `python` policy as the config names it: `{name: python, module: FILE, class: NAME, params: {...}}`.
struct PythonPolicySpec {
  std::string family;      ///< "scheduler" or "placement" (for messages)
  std::string module_path; ///< the Python file, resolved against the config's folder
  std::string class_name;
  config::Node node; ///< the policy's mapping: its key path and the locations of its keys
};

/// Reads and checks a `python` policy's mapping (known keys; a module file that exists; a class name).
/// Throws ConfigError naming the key.
PythonPolicySpec parse_python_spec(const config::Node& node, const std::string& family, const std::string& base_dir);

} // namespace acme::policies::python
