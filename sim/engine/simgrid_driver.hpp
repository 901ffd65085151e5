#pragma once

#include <chrono>
#include <exception>
#include <functional>

#include "sim/core/event_loop.hpp"
#include "sim/engine/platform.hpp"
#include "sim/engine/simgrid_fabric.hpp"
#include "sim/engine/simgrid_io.hpp"
#include "sim/engine/simulation.hpp"

namespace acme::engine {

/// The SimGrid adaptor of the event loop: SimGrid's clock drives it through one kernel timer armed
/// at the loop's next instant (DESIGN §4: no actor per job). Everything happens in timer callbacks
/// inside SimGrid's maestro, so the activities the I/O service starts complete back into the same
/// loop at their own simulated time.
class SimgridDriver {
public:
  SimgridDriver(Platform& platform, SimgridIo& io, SimgridFabric& fabric, core::EventLoop& loop,
                std::function<void(const Progress&)> on_progress);

  /// Runs SimGrid until the loop has nothing left to do. Rethrows the first exception an instant
  /// raised (the run stopped there).
  void run();
  /// From a SimGrid callback (an I/O completion): queues `event` at SimGrid's clock and re-arms.
  void post(const core::EngineEvent& event);

private:
  void arm();
  void on_timer(double date);

  Platform& platform_;
  SimgridIo& io_;
  SimgridFabric& fabric_;
  core::EventLoop& loop_;
  std::function<void(const Progress&)> on_progress_;
  double armed_at_s_ = -1.0; ///< date of the earliest kernel timer set and not yet fired (-1: none)
  std::chrono::steady_clock::time_point last_progress_ = std::chrono::steady_clock::now(); ///< last on_progress_
  std::exception_ptr error_;
};

} // namespace acme::engine
