#pragma once

#include <cstdint>
#include <tuple>

#include "sim/model/job.hpp"

namespace acme::workloads::eval {

/// Tags the evaluation jobs of one cluster's generated stream as requests: the jobs of one batch (one
/// checkpoint of one pretraining run, submitted together) get one JobSpec::eval_batch, unique across
/// clusters ((cluster + 1) << 40 | batch number from 1), and JobSpec::dataset = their position in the
/// batch. Batches arrive one after another (a generator emits a batch's jobs before the next batch).
class EvalBatchTags {
public:
  explicit EvalBatchTags(model::ClusterId cluster)
      : base_((std::uint64_t{model::to_index(cluster)} + 1) << CLUSTER_SHIFT) {}

  /// Tags `job` when it is an evaluation job of checkpoint `checkpoint` of run `run`.
  void tag(model::JobSpec& job, std::uint64_t run, std::uint32_t checkpoint) {
    if (job.type != model::JobType::EVAL) {
      return;
    }
    std::tuple key{run, checkpoint, job.submit_time_s};
    if (batches_ == 0 || key != last_) {
      ++batches_;
      last_ = key;
      position_ = 0;
    }
    job.eval_batch = base_ | batches_;
    job.dataset = position_++;
  }

private:
  static constexpr int CLUSTER_SHIFT = 40; // 2^40 batches per cluster
  std::uint64_t base_;
  std::uint64_t batches_ = 0;
  std::tuple<std::uint64_t, std::uint32_t, double> last_{};
  std::uint32_t position_ = 0;
};

} // namespace acme::workloads::eval
