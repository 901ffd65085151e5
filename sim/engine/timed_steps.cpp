#include "sim/engine/timed_steps.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>

namespace acme::engine {

void run_timed_steps(Platform& platform, const TimedSteps& steps) {
  for (const auto& [time_s, step] : steps) {
    simgrid::kernel::timer::Timer::set(time_s, step);
  }
  platform.get_engine().run();
}

} // namespace acme::engine
