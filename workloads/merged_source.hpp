#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "workloads/workload_source.hpp"

namespace acme::workloads {

/// A source of jobs with absolute times (Unix seconds), as readers produce them.
using PartFn = std::function<std::optional<model::JobSpec>()>;

/// Merges per-cluster streams by submission time, rebases times on a common epoch (the whole hour of
/// the first submission, unless given) and assigns dense job ids in merged order. Ties go to the
/// part listed first.
class MergedSource final : public WorkloadSource {
public:
  struct Part {
    PartFn next;
    std::function<std::uint64_t()> skipped;
  };
  /// `epoch_unix_s` < 0: derived from the first submission.
  MergedSource(std::vector<Part> parts, double epoch_unix_s, std::uint64_t limit);

  std::optional<model::JobSpec> next() override;
  double epoch_unix_s() const override { return epoch_unix_s_; }
  std::uint64_t skipped_rows() const override;
  double span_s() const override { return span_s_; }
  void set_span_s(double span_s) { span_s_ = span_s; }

private:
  std::vector<Part> parts_;
  std::vector<std::optional<model::JobSpec>> heads_;
  double epoch_unix_s_ = 0.0;
  std::uint64_t limit_ = 0;
  std::uint64_t emitted_ = 0;
  double span_s_ = 0.0;
};

} // namespace acme::workloads
