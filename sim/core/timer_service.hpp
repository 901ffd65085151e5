#pragma once

#include "sim/core/engine_event.hpp"

namespace acme::core {

/// The simulated clock and the engine's event queue, as the engine's parts see them.
class TimerService {
public:
  virtual ~TimerService() = default;
  /// Simulated time of the instant being processed, in seconds.
  virtual double now_s() const = 0;
  /// Queues `event` for `time_s` (never before now_s()). Events of one time run in the order queued.
  virtual void schedule(double time_s, EngineEvent event) = 0;
};

} // namespace acme::core
