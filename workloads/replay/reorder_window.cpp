#include "acme/workloads/replay/reorder_window.hpp"

#include "acme/model/error.hpp"

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
    heap_.emplace(std::move(*job), sequence_++);
  }
  if (heap_.empty()) {
    return std::nullopt;
  }
  model::JobSpec out = heap_.top().first;
  heap_.pop();
  last_emitted_s_ = out.submit_time_s;
  return out;
}

} // namespace acme::workloads
