#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "workloads/workload_source.hpp"

namespace acme::workloads {

/// Jobs made in advance (in submission order), handed out in order with dense ids 0, 1, ...
class ListSource final : public WorkloadSource {
public:
  explicit ListSource(std::vector<model::JobSpec> jobs, double epoch_unix_s = 0.0)
      : jobs_(std::move(jobs))
      , epoch_unix_s_(epoch_unix_s) {}
  std::optional<model::JobSpec> next() override {
    if (next_ == jobs_.size()) {
      return std::nullopt;
    }
    model::JobSpec job = std::move(jobs_[next_]);
    job.id = model::JobId{next_++};
    return job;
  }
  double epoch_unix_s() const override { return epoch_unix_s_; }

private:
  std::vector<model::JobSpec> jobs_;
  double epoch_unix_s_ = 0.0;
  std::size_t next_ = 0;
};

} // namespace acme::workloads
