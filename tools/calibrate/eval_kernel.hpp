#pragma once

#include <string>
#include <vector>

#include "tools/calibrate/backend.hpp"
#include "tools/calibrate/metric_phase.hpp"
#include "tools/calibrate/options.hpp"
#include "tools/calibrate/plan.hpp"
#include "tools/calibrate/stats.hpp"

namespace acme::tools::calibrate {

/// Inference throughput at one batch size.
struct InferencePoint {
  std::uint32_t batch = 0;
  std::vector<double> prefill_TFLOPs;
  std::vector<double> decode_TFLOPs;
};

/// What the evaluation-dispatch kernel measured.
struct EvalResults {
  QuantityLog quantities;                ///< the `evaluation:` section
  QuantityLog timings;                   ///< seconds for the measured sizes
  std::vector<InferencePoint> inference; ///< one entry per batch size, ascending
  MetricScores metric_scores;            ///< sanity check of the metric workload
  bool page_cache_dropped = true;
};

/// Model load (file -> pinned host -> device, the file at `file`), inference GEMMs of prefill and decode
/// per batch size, the CPU metric phase and the fixed cost of starting a trial, `opts.repeats` times.
EvalResults run_eval_kernel(Backend& backend, const Plan& plan, const Options& opts, const std::string& file);

} // namespace acme::tools::calibrate
