#pragma once

#include <string>

namespace acme::cli {

/// The few figures a run's user looks at first, one row per cluster of RUN_DIR/summary.json: GPU jobs,
/// their mean and median queueing delay, GPU utilisation, failures, pretraining ETTR and energy. ""
/// when the summary cannot be read.
std::string results_table(const std::string& summary_path);

} // namespace acme::cli
