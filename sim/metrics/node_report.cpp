#include "sim/metrics/node_report.hpp"

#include <numeric>

#include "sim/model/error.hpp"
#include "sim/model/units.hpp"

namespace acme::metrics {

std::string nodes_csv(const std::vector<NodeRecord>& records, const std::vector<std::string>& cluster_names,
                      const std::vector<std::string>& category_names) {
  std::string text = "cluster,node,failure_factor,failures";
  for (const auto& name : category_names) {
    text += ",failures_" + name;
  }
  text +=
      ",down_hours,repairs,manual_repairs,unfixed_repairs,quarantines,quarantine_hours,failures_avoided,slow_periods\n";
  for (const NodeRecord& r : records) {
    text += cluster_names.at(r.cluster) + "," + std::to_string(r.node) + "," + number_text(r.failure_factor) + "," +
            std::to_string(std::accumulate(r.failures.begin(), r.failures.end(), std::uint64_t{0}));
    for (std::uint32_t n : r.failures) {
      text += "," + std::to_string(n);
    }
    text += "," + number_text(r.down_s / model::SECONDS_PER_HOUR) + "," + std::to_string(r.repairs) + "," +
            std::to_string(r.manual_repairs) + "," + std::to_string(r.unfixed) + "," + std::to_string(r.quarantines) +
            "," + number_text(r.quarantine_s / model::SECONDS_PER_HOUR) + "," + std::to_string(r.failures_avoided) +
            "," + std::to_string(r.slow_periods) + "\n";
  }
  return text;
}

} // namespace acme::metrics
