#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/config.hpp"
#include "sim/model/ids.hpp"

namespace acme::core {

/// A node failure to replay at a given time.
struct FailureTraceRow {
  double time_s = 0.0; ///< simulated time (seconds since the run's epoch)
  model::ClusterId cluster{};
  std::uint32_t node = 0;
  std::uint32_t category = 0; ///< index into failures.categories
  double repair_s = -1.0;     ///< the trace's own repair time; negative: drawn from the category's
};

/// Reads a failure trace: CSV with header `time,cluster,node,category`; `time` is a date-time with
/// offset ("2023-03-01 10:00:00+08:00") or seconds since the run's epoch; `node` an index or a node
/// name ("seren-n0012"); `category` one of the config's failure categories. Rows in any order.
/// Malformed rows throw a ConfigError with file:line and column. A path ending in .json is read as an
/// InfiniteHBD-Trace fault trace instead (hbd_fault_trace.hpp).
std::vector<FailureTraceRow> load_failure_trace(const std::string& path, const config::Config& config,
                                                double epoch_unix_s);

/// Per cluster (of `nodes` nodes each), the trace's failures per node-second over its span, from the run's
/// start to its last row: the rate a checkpoint policy should assume when failures come from a trace.
std::vector<double> traced_rates(const std::vector<FailureTraceRow>& trace, const std::vector<std::uint32_t>& nodes);

} // namespace acme::core
