#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "sim/config/config.hpp"
#include "sim/model/job.hpp"
#include "sim/model/name_table.hpp"

namespace acme::workloads {

/// A stream of jobs in submission order. Readers stream their files: a million-row trace is never
/// held in memory twice.
class WorkloadSource {
public:
  virtual ~WorkloadSource() = default;
  /// The next job, with submit_time_s not smaller than the previous one's; nullopt at the end.
  /// Times are seconds since `epoch_unix_s()`. `id` is left for the caller to assign.
  /// Throws ConfigError (file:line, column) on a malformed row.
  virtual std::optional<model::JobSpec> next() = 0;
  /// Unix time of simulated time 0.
  virtual double epoch_unix_s() const = 0;
  /// Rows skipped as malformed (with `on_bad_row: skip`).
  virtual std::uint64_t skipped_rows() const { return 0; }
};

/// What to do with a malformed trace row.
enum class BadRowPolicy : std::uint8_t { ERROR, SKIP };

/// Everything a workload needs from the run besides its own config section.
struct WorkloadContext {
  const config::Config* config = nullptr;
  model::NameTable* users = nullptr;
};

/// Builds the source the config's `workload:` section describes (trace readers, generators),
/// merged across clusters and with dense job ids in submission order.
std::unique_ptr<WorkloadSource> make_workload(const WorkloadContext& context);

} // namespace acme::workloads
