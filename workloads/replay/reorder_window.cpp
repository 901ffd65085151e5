#include "workloads/replay/reorder_window.hpp"

#include "sim/model/error.hpp"

namespace acme::workloads {

std::optional<model::JobSpec> ReorderWindow::next(const std::function<std::optional<model::JobSpec>()>& read) {
  while (!exhausted_ && heap_.size() < WINDOW) {
    auto job = read();
    if (!job) {
      exhausted_ = true;
      break;
    }
    if (job->submit_time_s < last_emitted_s_) {
      throw ConfigError(Location{path_, 0, 0}, "",
                        "job \"" + job->name + "\" is submitted more than " + std::to_string(WINDOW) +
                            " rows after later jobs; expected rows sorted by submit time (sort the trace first)");
    }
    std::uint32_t slot = 0;
    if (free_slots_.empty()) {
      slot = static_cast<std::uint32_t>(slots_.size());
      slots_.push_back(std::move(*job));
    } else {
      slot = free_slots_.back();
      free_slots_.pop_back();
      slots_[slot] = std::move(*job);
    }
    heap_.push_back(Entry{slots_[slot].submit_time_s, sequence_++, slot});
    std::push_heap(heap_.begin(), heap_.end(), later);
  }
  if (heap_.empty()) {
    return std::nullopt;
  }
  std::pop_heap(heap_.begin(), heap_.end(), later);
  std::uint32_t slot = heap_.back().slot;
  heap_.pop_back();
  model::JobSpec out = std::move(slots_[slot]);
  free_slots_.push_back(slot);
  last_emitted_s_ = out.submit_time_s;
  return out;
}

} // namespace acme::workloads
