#include "policies/python/interpreter.hpp"

#include <cstdlib>
#include <mutex>

#include "policies/python/python_view.hpp"
#include "sim/model/error.hpp"
#include <pybind11/embed.h>

namespace acme::policies::python {
namespace {

/// Where tracebacks say the package's code is (its path in the repository).
constexpr const char* PACKAGE_FILE = "policies/python/acme_sim/__init__.py";

/// The main thread's state while the GIL is released between calls (the interpreter is per process).
PyThreadState* released_state = nullptr; // NOLINT(cppcoreguidelines-avoid-non-const-global-variables)

void finalize_at_exit() {
  PyEval_RestoreThread(released_state);
  py::finalize_interpreter();
}

void install_modules() {
  static py::module_::module_def native_def; // must outlive the module (CPython keeps a pointer)
  py::module_ native = py::module_::create_extension_module("_acme_sim", "acme-sim's native types", &native_def);
  bind_types(native);
  py::dict modules = py::module_::import("sys").attr("modules");
  modules["_acme_sim"] = native;
  py::module_ package = py::module_::import("types").attr("ModuleType")("acme_sim");
  package.attr("__file__") = PACKAGE_FILE;
  modules["acme_sim"] = package;
  py::object builtins = py::module_::import("builtins");
  py::object code = builtins.attr("compile")(py::str(std::string(acme_sim_package_source())), PACKAGE_FILE, "exec");
  builtins.attr("exec")(code, package.attr("__dict__"));
}

void start() {
  PyConfig config;
  PyConfig_InitPythonConfig(&config); // honours PYTHONPATH and the like, as a python3 command would
  config.install_signal_handlers = 0; // Ctrl-C stays acme-sim's
  config.parse_argv = 0;
  config.use_hash_seed = 1; // str hashes (set and dict orders of strings) repeat from run to run
  config.hash_seed = 0;
  try {
    py::initialize_interpreter(&config, 0, nullptr, false);
  } catch (const std::exception& e) {
    throw ConfigError(Location{"acme-sim", 0, 0}, "", std::string("cannot start Python: ") + e.what());
  }
  try {
    install_modules();
  } catch (py::error_already_set& e) {
    throw ConfigError(Location{PACKAGE_FILE, 0, 0}, "", std::string("cannot load acme_sim: ") + e.what());
  }
  released_state = PyEval_SaveThread();
  std::atexit(finalize_at_exit);
}

} // namespace

void ensure_interpreter() {
  static std::once_flag once;
  std::call_once(once, start);
}

} // namespace acme::policies::python
