#pragma once

// A training job's parallelism layout (tensor, pipeline, data parallel degrees) and what one training
// iteration costs on it: compute, NVLink traffic inside nodes, InfiniBand traffic between nodes, and
// how much of that traffic hides behind compute. The network model turns the InfiniBand part into
// long-lived flows and the iteration time into the job's progress rate (sim/core/training_traffic).
//
// Rules (Megatron-LM's placement; Narayanan et al., SC'21, "Efficient Large-Scale Language Model
// Training on GPU Clusters Using Megatron-LM", §3 and Table 1):
// - tensor parallel (TP) inside a node over NVLink, pipeline parallel (PP) across nodes, data parallel
//   (DP) outermost; ranks ordered TP fastest, then DP, then PP, over the job's nodes in placement order;
// - the model states (bf16 weights and gradients, fp32 master weights and Adam moments: 16 bytes per
//   parameter, Rajbhandari et al., SC'20 "ZeRO", §3.1) split over TP x PP must fit a share of a GPU's
//   memory (the rest holds activations); TP grows first, up to one node, then PP. With 80 GB A100s and
//   half the memory for states this gives Megatron's Table 1 (1.7B: t=1; 7.5B: t=4; 18B: t=8;
//   39B: t=8, p=2; 76B: t=8, p=4; 145B: t=8, p=8);
// - a pipeline stage holds whole nodes: PP is a divisor of the job's node count.
// Traffic per iteration (bytes leaving each node):
// - DP: ring all-reduce of the bf16 gradients of one stage: 2 (d - 1) / d x 2 bytes x P / p (each of
//   the node's TP ranks drives one ring hop per node);
// - PP: activations forward and their gradients backward between consecutive stages,
//   2 x micro-batches x (GPUs per node / t) x b x s x h x 2 bytes (Megatron's scatter/gather: each TP
//   rank sends 1/t of the activation);
// - TP: four all-reduces of b x s x h x 2 bytes per layer and micro-batch, on NVLink, ring volume
//   2 (t - 1) / t.
// Compute: 6 x P x tokens FLOPs per iteration (Kaplan et al. 2020) at the model FLOPs utilisation,
// stretched by the 1F1B pipeline bubble (p - 1) / m (Narayanan et al., eq. 1). Hidden size from the
// parameter count at 128 hidden units per layer (P = 12 L h^2; GPT-3 175B and LLaMA 7B have h/L = 128).
// Time on InfiniBand: while it communicates, a node's collectives run at the node's IB bandwidth B
// (all its compute NICs); DP and PP transfers share it in proportion to their bytes (each kind of flow is
// capped at its part of B) and end together: uncontended they take (DP + PP bytes) / B. A share of the
// DP all-reduce overlaps the backward pass (PyTorch DDP and Megatron overlap gradient reduction with
// backward computation; `dp_overlap`, at most the backward's 2/3 of compute). TP traffic is exposed.
// A flow that gets a share a of its cap stretches its transfers by 1 / a; the hidden part stays hidden.

#include <cstdint>

#include "sim/model/job.hpp"

namespace acme::model {

/// What the traffic model assumes about a training step (the `network:` section of a config).
struct TrainingAssumptions {
  double tokens_per_iteration = 4194304.0; ///< global batch: 4M tokens (LLaMA 2, Touvron et al. 2023)
  double sequence_length = 4096.0;         ///< LLaMA 2 context length
  double micro_batch = 1.0;                ///< sequences per micro-batch
  double peak_flops = 312e12;              ///< per GPU: A100 bf16 dense (datasheet)
  double mfu = 0.45;                       ///< model FLOPs utilisation: Narayanan et al. reach 44-52% of peak
  double state_bytes_per_param = 16.0;     ///< mixed-precision Adam (ZeRO, §3.1)
  double state_memory_share = 0.5;         ///< share of GPU memory for model states (the rest: activations)
  double dp_overlap = 0.5;                 ///< share of the DP all-reduce hidden behind the backward pass
  double inference_bytes_per_param = 2.0;  ///< evaluation jobs hold bf16 weights only
};

/// What a layout is computed from.
struct LayoutInputs {
  std::uint32_t gpus = 0;           ///< GPUs of the job (whole GPUs)
  std::uint32_t gpus_per_node = 8;  ///< of its cluster
  double params = 0.0;              ///< model parameters
  JobType type = JobType::PRETRAIN; ///< evaluation jobs run inference: no gradient traffic
  std::uint32_t tp_hint = 0;        ///< TP degree given by the workload (0: by the rules)
  std::uint32_t pp_hint = 0;        ///< PP degree given by the workload (0: by the rules)
  double gpu_memory_bytes = 80e9;   ///< per GPU
  double node_ib_Bps = 25e9;        ///< InfiniBand bandwidth of one node (all its compute NICs)
  double nvlink_Bps = 600e9;        ///< NVLink bandwidth of one GPU, both directions together
};

/// A job's parallelism layout and its uncontended iteration.
struct ParallelLayout {
  std::uint32_t tp = 1;
  std::uint32_t pp = 1;
  std::uint32_t dp = 1;
  std::uint32_t nodes = 1;
  std::uint32_t nodes_per_stage = 1;
  double dp_bytes_per_node = 0.0; ///< InfiniBand, per iteration, leaving each node
  double pp_bytes_per_node = 0.0; ///< InfiniBand, per iteration, leaving each node
  double dp_cap_Bps = 0.0;        ///< a DP flow's cap: its part of the node's IB bandwidth
  double pp_cap_Bps = 0.0;        ///< a PP flow's cap
  double nvlink_bytes_per_gpu = 0.0;
  double compute_s = 0.0; ///< per iteration, pipeline bubble included
  double nvlink_s = 0.0;  ///< TP all-reduces (and DP inside a node), not hidden
  double dp_s = 0.0;      ///< DP all-reduce at its cap (a ring of N nodes at B: 2 (N - 1) / N x S / B)
  double pp_s = 0.0;      ///< PP transfers at their cap (as long as dp_s when both exist: they end together)
  double hidden_s = 0.0;  ///< part of dp_s that overlaps compute

  /// Multi-node training: it puts DP and PP traffic on InfiniBand.
  bool uses_ib() const { return dp_bytes_per_node > 0.0 || pp_bytes_per_node > 0.0; }
  /// Iteration time when the DP flows get `dp_share` and the PP flows `pp_share` (0..1] of their caps:
  /// the transfers stretch by 1 / share, the hidden part of DP stays hidden.
  double iteration_s(double dp_share, double pp_share) const;
  /// Uncontended iteration time.
  double iteration_s() const { return iteration_s(1.0, 1.0); }
  /// Progress per second of wall time at those shares (1 uncontended).
  double progress_rate(double dp_share, double pp_share) const;
  /// Bytes per second a node's DP (PP) flow moves on average over an iteration at those shares (what
  /// a NIC counter sampled over seconds sees; the flow itself holds its share of the cap while it runs).
  double dp_average_Bps(double dp_share, double pp_share) const;
  double pp_average_Bps(double dp_share, double pp_share) const;
};

/// The layout and iteration of a job (GPU jobs of at least one whole GPU; others: the default layout).
ParallelLayout plan_layout(const LayoutInputs& in, const TrainingAssumptions& a);

/// Ring all-reduce volume each member sends: 2 (n - 1) / n x bytes (Patarasuk and Yuan, 2009).
constexpr double ring_allreduce_bytes(std::uint32_t members, double bytes) {
  return members <= 1 ? 0.0 : 2.0 * (members - 1) / members * bytes;
}

/// Hidden size of a transformer of `params` parameters at 128 hidden units per layer.
double hidden_size(double params);

} // namespace acme::model
