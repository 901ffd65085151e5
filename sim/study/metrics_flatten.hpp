#pragma once

#include <string>
#include <vector>

#include "sim/config/node.hpp"

namespace acme::study {

/// One number of a run's summary.json under its dotted path, e.g.
/// "clusters.seren.by_type.Pretrain.queue_s.p90" (list elements as "name[2]").
struct Metric {
  std::string name;
  double value = 0.0;
};

/// Every numeric leaf of a JSON document, in document order, so fields other engineers add to
/// summary.json flow into study results without code changes. Text leaves (paths, dates) and leaves
/// named wall* (wall-clock times, which differ between runs of the same point) are left out;
/// booleans count as 0/1. Throws ConfigError (file:line:col) when the text is not JSON.
std::vector<Metric> flatten_json_metrics(const std::string& json_text, const std::string& file_name);
/// The same, of a document already parsed (a JSON object; anything else fails located).
std::vector<Metric> flatten_metrics(const config::Node& root);

/// Reads and flattens a summary.json file; throws ConfigError naming it when missing or garbled.
std::vector<Metric> load_summary_metrics(const std::string& path);

} // namespace acme::study
