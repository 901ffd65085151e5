#include "tools/policy_bench/bench_workload.hpp"

#include <algorithm>
#include <cmath>

#include "sim/model/rng.hpp"

namespace acme::tools {
namespace {

// About 60 evaluation datasets per model checkpoint (data/README.md, "Decoupled evaluation").
constexpr std::size_t EVAL_BATCH_JOBS = 60;
// Shares of submission groups (one eval batch counts as one group). Eval jobs are the majority by count
// (data/acme/treemap_job_dist_shares.csv); these shares give roughly that.
constexpr double EVAL_BATCH_SHARE = 0.02;
constexpr double PRETRAIN_SHARE = 0.004;
constexpr double SFT_SHARE = 0.15;
// Median run times: Seren's GPU-job median is 122 s (data/acme/cluster_summary.csv); pretraining runs
// for hours to days. Log-normal spreads (sigma) keep a heavy tail.
constexpr double EVAL_MEDIAN_S = 300.0;
constexpr double SMALL_MEDIAN_S = 120.0;
constexpr double SFT_MEDIAN_S = 3600.0;
constexpr double PRETRAIN_MEDIAN_S = 12.0 * 3600.0;
constexpr double SIGMA = 1.2;
constexpr std::uint32_t USERS = 200;
constexpr std::uint32_t GPUS_PER_NODE = 8;

model::JobSpec job_of(model::Rng& rng, model::JobType type, std::uint32_t gpus, double median_s) {
  model::JobSpec j;
  j.type = type;
  j.gpus = gpus;
  j.duration_s = std::max(1.0, std::round(rng.lognormal(std::log(median_s), SIGMA)));
  j.user = model::UserId{static_cast<std::uint32_t>(rng.below(USERS))};
  return j;
}

/// One submission group: an evaluation batch or a single job.
std::vector<model::JobSpec> next_group(model::Rng& rng) {
  double pick = rng.uniform();
  if (pick < EVAL_BATCH_SHARE) {
    std::vector<model::JobSpec> batch;
    model::UserId user{static_cast<std::uint32_t>(rng.below(USERS))};
    for (std::size_t i = 0; i < EVAL_BATCH_JOBS; ++i) {
      batch.push_back(job_of(rng, model::JobType::EVAL, 1, EVAL_MEDIAN_S));
      batch.back().user = user;
    }
    return batch;
  }
  pick = rng.uniform();
  if (pick < PRETRAIN_SHARE) {
    auto nodes = static_cast<std::uint32_t>(8U << rng.below(4)); // 8, 16, 32 or 64 nodes
    return {job_of(rng, model::JobType::PRETRAIN, nodes * GPUS_PER_NODE, PRETRAIN_MEDIAN_S)};
  }
  if (pick < PRETRAIN_SHARE + SFT_SHARE) {
    auto nodes = static_cast<std::uint32_t>(1 + rng.below(4));
    return {job_of(rng, model::JobType::SFT, nodes * GPUS_PER_NODE, SFT_MEDIAN_S)};
  }
  auto type = rng.bernoulli(0.5) ? model::JobType::DEBUG : model::JobType::OTHER;
  auto gpus = static_cast<std::uint32_t>(1U << rng.below(4)); // 1, 2, 4 or 8
  return {job_of(rng, type, gpus, SMALL_MEDIAN_S)};
}

} // namespace

std::vector<model::JobSpec> make_bench_workload(std::uint64_t seed, std::size_t jobs, std::uint32_t cluster_gpus,
                                                double load) {
  model::Rng rng(seed, "bench/workload");
  std::vector<std::vector<model::JobSpec>> groups;
  std::size_t count = 0;
  double gpu_seconds = 0.0;
  while (count < jobs) {
    groups.push_back(next_group(rng));
    for (const auto& j : groups.back()) {
      gpu_seconds += j.gpus * j.duration_s;
    }
    count += groups.back().size();
  }
  // Mean gap between groups so that the offered GPU-seconds per second is load x cluster GPUs.
  double mean_gap_s = gpu_seconds / (load * cluster_gpus) / static_cast<double>(groups.size());
  std::vector<model::JobSpec> out;
  out.reserve(count);
  double t = 0.0;
  for (auto& group : groups) {
    t += std::round(rng.exponential(mean_gap_s));
    for (auto& j : group) {
      if (out.size() == jobs) {
        break;
      }
      j.id = model::JobId{out.size()};
      j.submit_time_s = t;
      out.push_back(std::move(j));
    }
  }
  return out;
}

} // namespace acme::tools
