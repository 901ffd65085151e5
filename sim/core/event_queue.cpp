#include "sim/core/event_queue.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "sim/model/assert.hpp"

namespace acme::core {

void EventQueue::schedule(double time_s, EngineEvent event) {
  ACME_ASSERT(time_s >= now_s_, "events are never scheduled in the past");
  heap_.push_back(Entry{time_s, sequence_++, event});
  std::push_heap(heap_.begin(), heap_.end(), LaterFirst{});
}

void EventQueue::advance_to(double now_s) {
  ACME_ASSERT(now_s >= now_s_, "simulated time never goes backwards");
  now_s_ = now_s;
}

double EventQueue::next_time_s() const {
  return heap_.empty() ? std::numeric_limits<double>::infinity() : heap_.front().time_s;
}

EngineEvent EventQueue::pop() {
  ACME_ASSERT(!heap_.empty(), "pop only from a non-empty queue");
  std::pop_heap(heap_.begin(), heap_.end(), LaterFirst{});
  EngineEvent event = std::move(heap_.back().event);
  heap_.pop_back();
  return event;
}

} // namespace acme::core
