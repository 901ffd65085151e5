#include "workloads/replay/sorted_trace.hpp"

#include <algorithm>

namespace acme::workloads {

SortedTrace::SortedTrace(std::unique_ptr<TraceReader> reader) : reader_(std::move(reader)) {
  while (auto job = reader_->next()) {
    jobs_.push_back(std::move(*job));
  }
  std::stable_sort(jobs_.begin(), jobs_.end(),
                   [](const model::JobSpec& a, const model::JobSpec& b) { return a.submit_time_s < b.submit_time_s; });
}

std::optional<model::JobSpec> SortedTrace::next() {
  if (next_ >= jobs_.size()) {
    return std::nullopt;
  }
  return std::move(jobs_[next_++]);
}

} // namespace acme::workloads
