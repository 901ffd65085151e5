#pragma once

#include <string>

#include "sim/study/results.hpp"

namespace acme::cli {

/// The few figures a run's user looks at first, one row per cluster of RUN_DIR/summary.json: GPU jobs,
/// their mean and median queueing delay, GPU utilisation, failures, pretraining ETTR and energy. ""
/// when the summary cannot be read.
std::string results_table(const std::string& summary_path);

/// A sweep's short results table: per setting (its label) and cluster, the mean over its finished seeds
/// of the GPU jobs' mean queueing delay, GPU utilisation, failures and pretraining ETTR; at most
/// `max_rows` rows, then how many more results.csv holds. "" when no point finished.
std::string sweep_results_table(const study::ResultsInput& input, std::size_t max_rows);

} // namespace acme::cli
