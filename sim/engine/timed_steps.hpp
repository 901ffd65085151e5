#pragma once

#include <functional>
#include <utility>
#include <vector>

#include "sim/engine/platform.hpp"

namespace acme::engine {

/// Steps to run at simulated times: (time in seconds, what to do then).
using TimedSteps = std::vector<std::pair<double, std::function<void()>>>;

/// Runs the platform's SimGrid engine with each step called at its simulated time (in SimGrid's
/// maestro) until nothing is left to do. For driving the engine's services without the event loop
/// (their tests), so that only sim/engine/ includes SimGrid.
void run_timed_steps(Platform& platform, const TimedSteps& steps);

} // namespace acme::engine
