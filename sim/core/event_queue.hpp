#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/timer_service.hpp"

namespace acme::core {

/// The engine's event heap: earliest time first, then the order of scheduling. A plain C++ heap
/// (DESIGN §4): the SimGrid adaptor arms one kernel timer at its next time.
class EventQueue final : public TimerService {
public:
  double now_s() const override { return now_s_; }
  void schedule(double time_s, EngineEvent event) override;

  /// Moves the clock to the instant `now_s` (never backwards).
  void advance_to(double now_s);
  bool empty() const { return heap_.empty(); }
  /// Time of the earliest event; infinity when none.
  double next_time_s() const;
  /// Whether an event is due at the current instant.
  bool has_due() const { return !heap_.empty() && heap_.front().time_s <= now_s_; }
  /// Removes and returns the earliest event.
  EngineEvent pop();

private:
  struct Entry {
    double time_s = 0.0;
    std::uint64_t sequence = 0;
    EngineEvent event;
  };
  struct LaterFirst {
    bool operator()(const Entry& a, const Entry& b) const {
      return a.time_s > b.time_s || (a.time_s == b.time_s && a.sequence > b.sequence);
    }
  };

  std::vector<Entry> heap_;
  std::uint64_t sequence_ = 0;
  double now_s_ = 0.0;
};

} // namespace acme::core
