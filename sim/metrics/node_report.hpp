#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace acme::metrics {

/// What failures did to one node over a run: a row of nodes.csv.
struct NodeRecord {
  std::uint16_t cluster = 0;
  std::uint32_t node = 0;
  double failure_factor = 1.0;         ///< its rate over the base rate (failures.node_factor)
  std::vector<std::uint32_t> failures; ///< by category, the switch last
  double down_s = 0.0;                 ///< out of service for its own failures, until repaired
  std::uint32_t repairs = 0;
  std::uint32_t manual_repairs = 0; ///< repairs escalated to a person (failures.repair.escalate_share)
  std::uint32_t unfixed = 0;        ///< repairs that returned the node with its fault
  std::uint32_t quarantines = 0;    ///< times recovery.quarantine kept it out once repaired
  double quarantine_s = 0.0;
  std::uint32_t failures_avoided = 0; ///< failures drawn while it was quarantined: no job met them
  std::uint32_t slow_periods = 0;     ///< times it turned slow (failures.slow)
};

/// nodes.csv: `cluster,node,failure_factor,failures,<one column per category>,down_hours,repairs,
/// manual_repairs,unfixed_repairs,quarantines,quarantine_hours,failures_avoided,slow_periods`, one row per node in
/// cluster and node order.
std::string nodes_csv(const std::vector<NodeRecord>& records, const std::vector<std::string>& cluster_names,
                      const std::vector<std::string>& category_names);

} // namespace acme::metrics
