#pragma once

#include <cstdint>
#include <vector>

namespace acme::policies {

/// How the trial coordinator hands trials to GPU lanes.
enum class LaneAssignment : std::uint8_t {
  ROUND_ROBIN,  ///< the paper's rule: trial i of the sorted queue goes to lane i mod lanes
  LEAST_LOADED, ///< each trial of the sorted queue goes to the lane with the least expected work so far
};

/// Assumption: a trial expected to run under 2 minutes on its GPU lane is mostly fixed cost (process
/// start, data loading, the host-to-device copy of the model): such datasets are batched into one trial.
inline constexpr double DEFAULT_BATCH_BELOW_S = 120.0;
/// Assumption: a trial may take at most half of one lane's fair share of the request's work; longer
/// datasets are split, so round-robin over the sorted queue balances lanes to about half a share.
inline constexpr double DEFAULT_SPLIT_SHARE = 0.5;
/// Assumption: a metric phase of 5 minutes or more (code execution, judge-model scoring; paper: up to
/// 30 minutes) puts its trial at the head of the queue so the metric job overlaps the other trials.
inline constexpr double DEFAULT_LONG_METRIC_S = 300.0;

/// The prior-based packing rules of the trial coordinator (paper §6: the datasets' runtimes are known
/// from earlier evaluations).
struct PackingParams {
  double batch_below_s = DEFAULT_BATCH_BELOW_S;
  double split_share = DEFAULT_SPLIT_SHARE;
  double long_metric_s = DEFAULT_LONG_METRIC_S;
  LaneAssignment assign = LaneAssignment::ROUND_ROBIN;
};

/// A dataset's share of work inside a trial: the whole dataset, or shard `shard` of `shards`.
struct TrialPart {
  std::uint32_t dataset = 0; ///< position in the request's dataset list
  std::uint32_t shard = 0;
  std::uint32_t shards = 1;
  double preprocess_s = 0.0;
  double inference_s = 0.0; ///< for the request's model on the lane's GPUs
  double metric_s = 0.0;
};

/// One trial: one process on one GPU lane, one host-to-device copy of the model, then the
/// preprocessing and inference of its parts; each part's metrics become a CPU job.
struct PlannedTrial {
  std::vector<TrialPart> parts;

  /// Expected time on the GPU lane: preprocessing plus inference.
  double lane_s() const;
  double longest_metric_s() const;
};

/// Packs whole datasets (one part each, shard 0 of 1) into trials for `lanes` GPU lanes: datasets
/// under `batch_below_s` of lane time are batched (largest first, a batch closes once it reaches
/// batch_below_s); datasets over max(batch_below_s, split_share x total lane time / lanes) are split
/// into the fewest equal shards under that bound; the rest are one trial each.
std::vector<PlannedTrial> pack_trials(const std::vector<TrialPart>& datasets, std::uint32_t lanes,
                                      const PackingParams& params);
/// The coordinator's queue: trials with a metric phase of at least long_metric_s first (longest
/// lane + metric time first), then the others by expected lane time, longest first. Stable.
std::vector<PlannedTrial> order_trials(std::vector<PlannedTrial> trials, const PackingParams& params);
/// Hands the queue to `lanes` lanes in queue order; lane k's trials run in that order.
std::vector<std::vector<PlannedTrial>> assign_lanes(const std::vector<PlannedTrial>& queue, std::uint32_t lanes,
                                                    LaneAssignment assign);

} // namespace acme::policies
