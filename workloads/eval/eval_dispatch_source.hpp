#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "policies/eval/eval_dispatch.hpp"
#include "workloads/workload_source.hpp"

namespace acme::workloads::eval {

/// What the datacenter run's `evaluation:` section sets.
struct EvalSettings {
  std::vector<policies::EvalDataset> catalogue;
  std::uint32_t nodes = 1; ///< nodes a request may use per GPU of one of its trials (capped at the cluster)
  std::vector<policies::EvalClusterShape> clusters;              ///< by cluster id
  std::vector<std::unique_ptr<policies::EvalDispatch>> policies; ///< by cluster id
};

/// Decorates a workload: each evaluation batch of the inner source (jobs sharing a non-zero eval_batch
/// and no task plan, submitted at the same instant, e.g. the ~60 jobs the synthetic generator emits per
/// pretraining checkpoint) becomes one evaluation request whose jobs the cluster's dispatch policy
/// makes; every other job passes through unchanged. Job i of a batch (JobSpec::dataset = its position)
/// evaluates catalogue row (batch + i) mod rows, so successive batches rotate over the catalogue; a
/// batch evaluates each dataset at most once. The request keeps the batch's id, cluster, user, submit
/// time and model size; it may use `nodes` nodes per GPU a trial of its model needs (a 70B model, 4 GPUs
/// per trial, gets 4 x nodes: as many lanes as a 7B model on `nodes`). Output ids are dense, in output
/// order.
class EvalDispatchSource final : public WorkloadSource {
public:
  EvalDispatchSource(std::unique_ptr<WorkloadSource> inner, EvalSettings settings);
  std::optional<model::JobSpec> next() override;
  double epoch_unix_s() const override { return inner_->epoch_unix_s(); }
  double span_s() const override { return inner_->span_s(); }
  std::uint64_t skipped_rows() const override { return inner_->skipped_rows(); }

  /// Requests dispatched so far.
  std::uint64_t requests() const { return requests_; }

private:
  /// Reads the next instant of the inner source and queues its jobs (batches dispatched).
  bool fill();
  void dispatch_batch(const std::vector<model::JobSpec>& batch);

  std::unique_ptr<WorkloadSource> inner_;
  EvalSettings settings_;
  std::optional<model::JobSpec> lookahead_;
  std::deque<model::JobSpec> ready_;
  std::uint64_t next_id_ = 0;
  std::uint64_t requests_ = 0;
};

/// Wraps `inner` in an EvalDispatchSource when the config has an `evaluation:` section
/// ({dispatch: {name: coupled | decoupled, ...}, catalogue: builtin | PATH, nodes: 1}); else returns it.
std::unique_ptr<WorkloadSource> with_evaluation(const WorkloadContext& context, std::unique_ptr<WorkloadSource> inner);

} // namespace acme::workloads::eval
