#include "workloads/merged_source.hpp"

#include <cmath>
#include <limits>

#include "sim/model/units.hpp"

namespace acme::workloads {

MergedSource::MergedSource(std::vector<Part> parts, double epoch_unix_s, std::uint64_t limit)
    : parts_(std::move(parts))
    , epoch_unix_s_(epoch_unix_s)
    , limit_(limit) {
  double first = std::numeric_limits<double>::infinity();
  for (auto& part : parts_) {
    heads_.push_back(part.next());
    if (heads_.back()) {
      first = std::min(first, heads_.back()->submit_time_s);
    }
  }
  if (epoch_unix_s_ < 0.0) {
    epoch_unix_s_ = std::isfinite(first) ? std::floor(first / model::SECONDS_PER_HOUR) * model::SECONDS_PER_HOUR : 0.0;
  }
}

std::optional<model::JobSpec> MergedSource::next() {
  if (limit_ > 0 && emitted_ >= limit_) {
    return std::nullopt;
  }
  std::size_t best = heads_.size();
  for (std::size_t i = 0; i < heads_.size(); ++i) {
    if (heads_[i] && (best == heads_.size() || heads_[i]->submit_time_s < heads_[best]->submit_time_s)) {
      best = i;
    }
  }
  if (best == heads_.size()) {
    return std::nullopt;
  }
  model::JobSpec job = std::move(*heads_[best]);
  heads_[best] = parts_[best].next();
  job.id = model::JobId{emitted_++};
  job.submit_time_s -= epoch_unix_s_;
  if (job.recorded_start_s != model::UNKNOWN_TIME_S) {
    job.recorded_start_s -= epoch_unix_s_;
  }
  return job;
}

std::uint64_t MergedSource::skipped_rows() const {
  std::uint64_t total = 0;
  for (const auto& part : parts_) {
    total += part.skipped ? part.skipped() : 0;
  }
  return total;
}

} // namespace acme::workloads
