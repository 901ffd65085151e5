#include "sim/engine/simgrid_driver.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <cmath>
#include <utility>

namespace acme::engine {
namespace {
// Often enough for --max-time/--max-memory to stop a run within a fraction of a second; the progress line
// redraws at its own pace.
constexpr std::uint64_t PROGRESS_EVERY_INSTANTS = 1 << 10;
} // namespace

SimgridDriver::SimgridDriver(Platform& platform, SimgridIo& io, SimgridFabric& fabric, core::EventLoop& loop,
                             std::function<void(const Progress&)> on_progress)
    : platform_(platform)
    , io_(io)
    , fabric_(fabric)
    , loop_(loop)
    , on_progress_(std::move(on_progress)) {}

void SimgridDriver::run() {
  arm();
  platform_.get_engine().run();
  if (error_) {
    std::rethrow_exception(error_);
  }
}

void SimgridDriver::post(const core::EngineEvent& event) {
  loop_.timer().schedule(simgrid::s4u::Engine::get_clock(), event);
  arm();
}

void SimgridDriver::arm() {
  double t = loop_.next_time_s();
  if (std::isinf(t) || error_) {
    return;
  }
  if (armed_at_s_ >= 0.0 && armed_at_s_ <= t) {
    return;
  }
  armed_at_s_ = t;
  simgrid::kernel::timer::Timer::set(t, [this, t] { on_timer(t); });
}

void SimgridDriver::on_timer(double date) {
  if (date == armed_at_s_) {
    armed_at_s_ = -1.0;
  }
  if (error_) {
    return;
  }
  try {
    double now = simgrid::s4u::Engine::get_clock();
    if (loop_.next_time_s() <= now) {
      io_.collect_garbage();
      fabric_.collect_garbage();
      loop_.process_instant(now);
      if (on_progress_ && loop_.instants() % PROGRESS_EVERY_INSTANTS == 0) {
        on_progress_(Progress{now, loop_.epoch_unix_s(), loop_.jobs_submitted(), loop_.jobs_recorded()});
      }
    }
  } catch (...) {
    // Exceptions must not cross SimGrid's kernel: keep the first, stop arming, rethrow from run().
    error_ = std::current_exception();
    return;
  }
  arm();
}

} // namespace acme::engine
