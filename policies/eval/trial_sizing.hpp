#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "policies/eval/eval_dispatch.hpp"
#include "policies/param_table.hpp"
#include "sim/config/node.hpp"

namespace acme::policies {

/// bf16 weights: 2 bytes per parameter (the paper's 7B model is 14 GB).
inline constexpr double DEFAULT_BYTES_PER_PARAM = 2.0;
/// Assumption: the weights may take half of a GPU's memory; the rest holds the KV cache and
/// activations of batched inference. A 7B model (14 GB) fits one 80 GB A100; a 70B model needs 4.
inline constexpr double DEFAULT_WEIGHT_MEMORY_SHARE = 0.5;

/// How large the evaluated model is and how a trial runs it; shared by every dispatch policy.
///
/// Scaling rule for inference: the catalogue gives each dataset's inference time for a 7B model on one
/// GPU. Autoregressive decoding is bound by reading the weights from GPU memory once per token, so
/// the time grows in proportion to the parameters; a trial whose weights need g GPUs (tensor
/// parallel, the smallest power of two under the memory share) runs g times faster (ideal scaling):
///   inference_s(model) = inference_s(7B) x (params / 7e9) / g.
struct TrialSizing {
  double bytes_per_param = DEFAULT_BYTES_PER_PARAM;
  double weight_memory_share = DEFAULT_WEIGHT_MEMORY_SHARE;

  /// `bytes_per_param` and `weight_memory_share`.
  static const ParamTable<TrialSizing>& table();

  /// Parameters of the request's model (7B when unknown).
  static double params_of(const EvalRequest& request);
  double model_bytes(const EvalRequest& request) const;
  /// Whether the weights fit the GPUs of one node (a trial holds at most a node).
  bool fits(const EvalRequest& request) const;
  /// GPUs one trial needs to hold the weights: a power of two, at most a node.
  std::uint32_t gpus_per_trial(const EvalRequest& request) const;
  /// GPU inference time of `dataset` for the request's model on `gpus` GPUs.
  double inference_s(const EvalDataset& dataset, const EvalRequest& request, std::uint32_t gpus) const;
};

/// The JobSpec fields every evaluation job of `request` shares: cluster, user, type, batch, model; when the
/// model does not fit a node's GPUs (`sizing`), the job is marked to be rejected (MODEL_TOO_LARGE).
model::JobSpec eval_job_base(const EvalRequest& request, const TrialSizing& sizing);
/// A step of a task plan: `seconds` of a timed phase, or `bytes` to move.
model::TaskStep plan_step(model::TaskStep::Kind kind, double seconds, double bytes = 0.0);
/// Seconds one node's storage path needs for `bytes` alone (0 when the path's speed is unknown).
double lone_read_s(const EvalRequest& request, double bytes);

} // namespace acme::policies
