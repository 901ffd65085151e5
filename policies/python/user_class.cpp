#include "policies/python/user_class.hpp"

#include <spdlog/logger.h>

#include <filesystem>

#include "sim/log/log.hpp"
#include "sim/model/error.hpp"

namespace acme::policies::python {
namespace {

std::string user_folder(const PythonPolicySpec& spec) {
  return std::filesystem::path(spec.module_path).parent_path().string();
}

/// (file, line) of the definition of `fallback` (a function or a class's __init__), or the module file.
Location defined_at(const PythonPolicySpec& spec, py::handle fallback) {
  py::object code = py::getattr(fallback, "__code__", py::none());
  if (code.is_none()) {
    code = py::getattr(py::getattr(fallback, "__init__", py::none()), "__code__", py::none());
  }
  if (code.is_none()) {
    return Location{spec.module_path, 0, 0};
  }
  return Location{py::str(code.attr("co_filename")), code.attr("co_firstlineno").cast<int>(), 0};
}

std::string classes_in(py::handle module) {
  std::vector<std::string> names;
  py::object isclass = py::module_::import("inspect").attr("isclass");
  for (auto [key, value] : py::reinterpret_borrow<py::dict>(module.attr("__dict__"))) {
    if (isclass(value).cast<bool>() && py::str(py::getattr(value, "__module__", py::str())).cast<std::string>() ==
                                           py::str(module.attr("__name__")).cast<std::string>()) {
      names.push_back(py::str(key));
    }
  }
  return names.empty() ? "(none)" : join(names);
}

py::object load_class(const PythonPolicySpec& spec, py::module_& acme_sim) {
  py::object module;
  try {
    module = acme_sim.attr("_load_module")(spec.module_path);
  } catch (py::error_already_set& e) {
    throw_user_error(e, spec, "importing " + spec.module_path, py::none());
  }
  if (!py::hasattr(module, spec.class_name.c_str())) {
    spec.node["class"].fail("\"" + spec.module_path + "\" defines no \"" + spec.class_name +
                            "\"; expected one of its classes: " + classes_in(module));
  }
  py::object cls = module.attr(spec.class_name.c_str());
  if (PyCallable_Check(cls.ptr()) == 0) {
    spec.node["class"].fail("\"" + spec.class_name + "\" in \"" + spec.module_path + "\" is an object of type " +
                            py::str(py::type::of(cls).attr("__name__")).cast<std::string>() +
                            ", not a class; expected the name of a class");
  }
  return cls;
}

} // namespace

py::object make_instance(const PythonPolicySpec& spec, const PolicyContext& context) {
  py::module_ acme_sim = py::module_::import("acme_sim");
  py::object cls = load_class(spec, acme_sim);
  py::object params = value_from(spec.node["params"]);
  if (params.is_none()) {
    params = py::dict();
  }
  try {
    return cls(params, py::cast(context));
  } catch (py::error_already_set& e) {
    throw_user_error(e, spec, spec.class_name + "(params, context)", cls);
  }
}

py::object user_method(py::handle instance, const PythonPolicySpec& spec, const char* name) {
  py::object method = py::getattr(instance, name, py::none());
  if (method.is_none() || PyCallable_Check(method.ptr()) == 0) {
    spec.node["class"].fail("class \"" + spec.class_name + "\" has no method " + name + "(); a Python " + spec.family +
                            " defines " + name + " (see acme_sim." +
                            (spec.family == "scheduler" ? "Scheduler" : "PlacementPolicy") + ")");
  }
  return method;
}

void throw_user_error(py::error_already_set& error, const PythonPolicySpec& spec, const std::string& what,
                      py::handle fallback) {
  // An error raised before any Python frame ran (a call with the wrong arguments) has no traceback.
  py::object trace = error.trace() ? py::reinterpret_borrow<py::object>(error.trace()) : py::none();
  py::tuple where = py::module_::import("acme_sim").attr("_locate")(error.value(), trace, user_folder(spec));
  auto file = where[0].cast<std::string>();
  int line = where[1].cast<int>();
  log::get(log::Category::POLICY).debug("{} raised:\n{}", what, where[3].cast<std::string>());
  Location at{file, line, 0};
  if (file.empty()) {
    at = defined_at(spec, fallback);
  }
  throw ConfigError(at, spec.node.path(), what + " raised " + where[2].cast<std::string>());
}

void throw_result_error(const PythonPolicySpec& spec, const std::string& file, int line, py::handle fallback,
                        const std::string& message) {
  Location at = file.empty() ? defined_at(spec, fallback) : Location{file, line, 0};
  throw ConfigError(at, spec.node.path(), message);
}

} // namespace acme::policies::python
