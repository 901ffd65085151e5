#pragma once

#include "policies/builtin.hpp"

namespace acme::policies::python {

/// Adds the `python` scheduler and placement policy (a class of the user's Python file) to the
/// registries. Without Python support in this build they are listed all the same and refuse to run.
void register_python_policies(PolicyRegistries& registries);

/// The builtin registries plus the Python policies: what a run and `acme-sim list` use.
PolicyRegistries make_registries_with_python();

} // namespace acme::policies::python
