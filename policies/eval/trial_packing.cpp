#include "policies/eval/trial_packing.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "sim/model/assert.hpp"

namespace acme::policies {
namespace {

double part_lane_s(const TrialPart& part) {
  return part.preprocess_s + part.inference_s;
}

std::vector<TrialPart> shards_of(const TrialPart& whole, std::uint32_t shards) {
  std::vector<TrialPart> out;
  for (std::uint32_t k = 0; k < shards; ++k) {
    TrialPart part = whole;
    part.shard = k;
    part.shards = shards;
    part.preprocess_s = whole.preprocess_s / shards;
    part.inference_s = whole.inference_s / shards;
    part.metric_s = whole.metric_s / shards;
    out.push_back(part);
  }
  return out;
}

/// Batches of small datasets, largest first; a batch closes once it reaches `batch_below_s`.
std::vector<PlannedTrial> batch_small(std::vector<TrialPart> small, double batch_below_s) {
  std::stable_sort(small.begin(), small.end(),
                   [](const TrialPart& a, const TrialPart& b) { return part_lane_s(a) > part_lane_s(b); });
  std::vector<PlannedTrial> out;
  PlannedTrial open;
  for (const TrialPart& part : small) {
    open.parts.push_back(part);
    if (open.lane_s() >= batch_below_s) {
      out.push_back(std::move(open));
      open = PlannedTrial{};
    }
  }
  if (!open.parts.empty()) {
    out.push_back(std::move(open));
  }
  return out;
}

} // namespace

double PlannedTrial::lane_s() const {
  double total = 0.0;
  for (const TrialPart& p : parts) {
    total += part_lane_s(p);
  }
  return total;
}

double PlannedTrial::longest_metric_s() const {
  double longest = 0.0;
  for (const TrialPart& p : parts) {
    longest = std::max(longest, p.metric_s);
  }
  return longest;
}

std::vector<PlannedTrial> pack_trials(const std::vector<TrialPart>& datasets, std::uint32_t lanes,
                                      const PackingParams& params) {
  ACME_ASSERT(lanes > 0, "a request runs on at least one lane");
  double total_s = std::accumulate(datasets.begin(), datasets.end(), 0.0,
                                   [](double sum, const TrialPart& p) { return sum + part_lane_s(p); });
  double max_trial_s = std::max(params.batch_below_s, params.split_share * total_s / lanes);
  std::vector<PlannedTrial> trials;
  std::vector<TrialPart> small;
  for (const TrialPart& dataset : datasets) {
    double lane_s = part_lane_s(dataset);
    if (lane_s < params.batch_below_s) {
      small.push_back(dataset);
    } else if (lane_s > max_trial_s) {
      auto shards = static_cast<std::uint32_t>(std::ceil(lane_s / max_trial_s));
      for (const TrialPart& shard : shards_of(dataset, shards)) {
        trials.push_back(PlannedTrial{{shard}});
      }
    } else {
      trials.push_back(PlannedTrial{{dataset}});
    }
  }
  for (PlannedTrial& batch : batch_small(std::move(small), params.batch_below_s)) {
    trials.push_back(std::move(batch));
  }
  return trials;
}

std::vector<PlannedTrial> order_trials(std::vector<PlannedTrial> trials, const PackingParams& params) {
  auto long_metric = [&](const PlannedTrial& t) { return t.longest_metric_s() >= params.long_metric_s; };
  std::stable_sort(trials.begin(), trials.end(), [&](const PlannedTrial& a, const PlannedTrial& b) {
    bool la = long_metric(a);
    bool lb = long_metric(b);
    if (la != lb) {
      return la;
    }
    if (la) {
      return a.lane_s() + a.longest_metric_s() > b.lane_s() + b.longest_metric_s();
    }
    return a.lane_s() > b.lane_s();
  });
  return trials;
}

std::vector<std::vector<PlannedTrial>> assign_lanes(const std::vector<PlannedTrial>& queue, std::uint32_t lanes,
                                                    LaneAssignment assign) {
  ACME_ASSERT(lanes > 0, "a request runs on at least one lane");
  std::vector<std::vector<PlannedTrial>> out(lanes);
  std::vector<double> load_s(lanes, 0.0);
  for (std::size_t i = 0; i < queue.size(); ++i) {
    std::size_t lane = i % lanes;
    if (assign == LaneAssignment::LEAST_LOADED) {
      lane = static_cast<std::size_t>(std::min_element(load_s.begin(), load_s.end()) - load_s.begin());
    }
    out[lane].push_back(queue[i]);
    load_s[lane] += queue[i].lane_s();
  }
  return out;
}

} // namespace acme::policies
