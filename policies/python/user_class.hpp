#pragma once

#include <string>

#include "policies/python/policy_spec.hpp"
#include "policies/python/python_values.hpp"
#include "policies/registry.hpp"

namespace acme::policies::python {

/// The user's class from their module, instantiated as Class(params, context). Imports the module once
/// per process (policies of several clusters share it) with its folder on sys.path. Throws ConfigError
/// located in their code (import errors, exceptions in the constructor) or at the `class:` key (no such
/// class). The GIL must be held.
py::object make_instance(const PythonPolicySpec& spec, const PolicyContext& context);

/// The bound method `name` of `instance`; ConfigError at the `class:` key when it has none.
py::object user_method(py::handle instance, const PythonPolicySpec& spec, const char* name);

/// Throws the ConfigError for an exception raised by user code while running `what` (e.g. "on_events"):
/// located at the innermost traceback frame in the user's module folder (else the innermost frame, else
/// where `fallback`, a function, is defined), with the exception's type and message. Logs the whole
/// traceback at debug level (category policy).
[[noreturn]] void throw_user_error(py::error_already_set& error, const PythonPolicySpec& spec, const std::string& what,
                                   py::handle fallback);

/// Throws the ConfigError for a wrong result of user code (`message` says what is wrong) located at
/// `file`:`line`, or where `fallback` is defined when file is empty.
[[noreturn]] void throw_result_error(const PythonPolicySpec& spec, const std::string& file, int line,
                                     py::handle fallback, const std::string& message);

} // namespace acme::policies::python
