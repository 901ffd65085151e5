#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "workloads/replay/trace_reader.hpp"

namespace acme::workloads {

/// A trace whose rows are in no particular order (Philly's table): reads the whole file at construction
/// (malformed rows fail or are skipped then) and emits the jobs by submit time, ties in file order.
class SortedTrace {
public:
  explicit SortedTrace(std::unique_ptr<TraceReader> reader);

  /// The next job by submit time (times in Unix seconds), or nullopt after the last.
  std::optional<model::JobSpec> next();
  std::uint64_t skipped_rows() const { return reader_->skipped_rows(); }
  /// Jobs read (rows that were not skipped).
  std::size_t jobs() const { return jobs_.size(); }

private:
  std::unique_ptr<TraceReader> reader_;
  std::vector<model::JobSpec> jobs_;
  std::size_t next_ = 0;
};

} // namespace acme::workloads
