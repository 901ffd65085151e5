#pragma once

#include <string_view>

#include <pybind11/pybind11.h>

namespace acme::policies::python {

/// Starts the process's Python interpreter on first use (once per process: CPython cannot be restarted
/// reliably) with the modules _acme_sim (the native types) and acme_sim (the package, compiled in), and
/// finalizes it at process exit, after every policy (owned by its run) is gone. Between calls the GIL
/// is released: code that touches Python holds it with pybind11::gil_scoped_acquire. Python's string
/// hashing is seeded with 0, so set iteration orders, and thus runs, repeat. Throws ConfigError when the
/// interpreter cannot start.
void ensure_interpreter();

/// The source of the acme_sim package (policies/python/acme_sim/__init__.py, compiled in).
std::string_view acme_sim_package_source();

} // namespace acme::policies::python
