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

/// What a policy may not do to the process that runs it, enforced before any policy is imported:
/// a forked child would write the run's staging folder beside its parent (it ends at once, code 70);
/// os._exit() would end acme-sim with nothing written and the staging folder left (it raises instead).
constexpr const char* PROCESS_GUARDS = R"(
import os as _os

_exit_now = _os._exit


def _forked_child():
    _os.write(2, b"acme-sim: a policy forked the process; the child ends (a policy may not fork)\n")
    _exit_now(70)


def _refused_exit(code=0):
    raise RuntimeError("os._exit() in a policy would end acme-sim with nothing written; "
                       "expected a return or an exception")


_os.register_at_fork(after_in_child=_forked_child)
_os._exit = _refused_exit
)";

void finalize_at_exit() {
  PyEval_RestoreThread(released_state);
  // The outputs are committed: a thread a policy left running (not a daemon) must not keep the process
  // alive, as Python's shutdown would by joining it.
  PyRun_SimpleString("import threading\nthreading._shutdown = lambda: None\n");
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
    py::object builtins = py::module_::import("builtins"); // under the package's name: errors skip it
    builtins.attr("exec")(builtins.attr("compile")(PROCESS_GUARDS, PACKAGE_FILE, "exec"), py::dict());
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
