#include "sim/model/parallel_layout.hpp"

#include <algorithm>
#include <cmath>

namespace acme::model {
namespace {

constexpr double FLOPS_PER_PARAM_TOKEN = 6.0;   // forward 2 + backward 4 (Kaplan et al. 2020)
constexpr double BACKWARD_SHARE = 2.0 / 3.0;    // of compute: where the DP all-reduce can overlap
constexpr double PARAMS_PER_LAYER_H2 = 12.0;    // P = 12 L h^2 (attention 4 h^2 + MLP 8 h^2)
constexpr double HIDDEN_PER_LAYER = 128.0;      // h / L of GPT-3 175B (12288 / 96) and LLaMA 7B (4096 / 32)
constexpr double ACTIVATION_BYTES = 2.0;        // bf16
constexpr double GRADIENT_BYTES = 2.0;          // bf16 gradients are all-reduced
constexpr double TP_ALLREDUCES_PER_LAYER = 4.0; // two forward, two backward (Megatron, §2.3)
constexpr double TRANSFERS_PER_BOUNDARY = 2.0;  // activations forward, their gradients backward
constexpr double MIN_SHARE = 1e-6; // a flow that gets nothing still moves (the job stalls, it does not stop)

bool divides(std::uint32_t d, std::uint32_t n) {
  return d > 0 && n % d == 0;
}

/// Smallest power of two >= `need` that divides `gpus`, at most `limit` (1 when none).
std::uint32_t tensor_degree(double need, std::uint32_t gpus, std::uint32_t limit) {
  std::uint32_t best = 1;
  for (std::uint32_t t = 1; t <= limit; t *= 2) {
    if (!divides(t, gpus)) {
      break;
    }
    best = t;
    if (t >= need) {
      break;
    }
  }
  return best;
}

/// Smallest divisor of `nodes` giving stages of >= `need` (nodes: the whole job when none does).
std::uint32_t pipeline_degree(double need, std::uint32_t nodes) {
  for (std::uint32_t p = 1; p <= nodes; ++p) {
    if (divides(p, nodes) && p >= need) {
      return p;
    }
  }
  return nodes;
}

void choose_degrees(const LayoutInputs& in, const TrainingAssumptions& a, ParallelLayout& l) {
  bool inference = in.type == JobType::EVAL;
  double bytes = in.params * (inference ? a.inference_bytes_per_param : a.state_bytes_per_param);
  double shards = std::max(1.0, std::ceil(bytes / (a.state_memory_share * in.gpu_memory_bytes)));
  std::uint32_t per_node = std::min(in.gpus, in.gpus_per_node);
  l.tp = divides(in.tp_hint, in.gpus) && in.tp_hint <= per_node ? in.tp_hint : tensor_degree(shards, in.gpus, per_node);
  bool whole_nodes = l.nodes > 1 && in.gpus == l.nodes * in.gpus_per_node && l.tp <= in.gpus_per_node;
  if (divides(in.pp_hint, l.nodes) && whole_nodes) {
    l.pp = in.pp_hint;
  } else if (whole_nodes && shards > l.tp) {
    l.pp = pipeline_degree(shards / l.tp, l.nodes);
  }
  l.dp = std::max(1u, in.gpus / (l.tp * l.pp));
  l.nodes_per_stage = std::max(1u, l.nodes / l.pp);
}

} // namespace

double hidden_size(double params) {
  return std::cbrt(params * HIDDEN_PER_LAYER / PARAMS_PER_LAYER_H2);
}

ParallelLayout plan_layout(const LayoutInputs& in, const TrainingAssumptions& a) {
  ParallelLayout l;
  if (in.gpus == 0 || in.gpus_per_node == 0 || in.params <= 0.0) {
    return l;
  }
  l.nodes = (in.gpus + in.gpus_per_node - 1) / in.gpus_per_node;
  choose_degrees(in, a, l);
  double h = hidden_size(in.params);
  double layers = h / HIDDEN_PER_LAYER;
  double micro_tokens = a.micro_batch * a.sequence_length;
  double micro_batches = std::max(1.0, a.tokens_per_iteration / (micro_tokens * l.dp));
  double bubble = 1.0 + (l.pp - 1.0) / micro_batches;
  l.compute_s = FLOPS_PER_PARAM_TOKEN * in.params * a.tokens_per_iteration / (in.gpus * a.peak_flops * a.mfu) * bubble;
  double nvlink_one_way_Bps = in.nvlink_Bps / 2.0;
  double activation = micro_tokens * h * ACTIVATION_BYTES;
  l.nvlink_bytes_per_gpu =
      layers / l.pp * micro_batches * TP_ALLREDUCES_PER_LAYER * ring_allreduce_bytes(l.tp, activation);
  double stage_gradient = GRADIENT_BYTES * in.params / l.pp;
  bool training = in.type != JobType::EVAL;
  if (training && l.dp > 1 && l.nodes_per_stage > 1) {
    l.dp_bytes_per_node = ring_allreduce_bytes(l.dp, stage_gradient);
  } else if (training) {
    l.nvlink_bytes_per_gpu += ring_allreduce_bytes(l.dp, stage_gradient / l.tp); // DP inside one node
  }
  if (l.pp > 1) {
    double tp_groups_per_node = static_cast<double>(in.gpus_per_node) / l.tp;
    l.pp_bytes_per_node = TRANSFERS_PER_BOUNDARY * micro_batches * tp_groups_per_node * activation;
  }
  l.nvlink_s = l.nvlink_bytes_per_gpu / nvlink_one_way_Bps;
  double ib_bytes = l.dp_bytes_per_node + l.pp_bytes_per_node;
  if (ib_bytes > 0.0) {
    // DP and PP share the node's IB bandwidth in proportion to their bytes and end together.
    l.dp_cap_Bps = in.node_ib_Bps * l.dp_bytes_per_node / ib_bytes;
    l.pp_cap_Bps = in.node_ib_Bps * l.pp_bytes_per_node / ib_bytes;
    l.dp_s = l.dp_bytes_per_node > 0.0 ? l.dp_bytes_per_node / l.dp_cap_Bps : 0.0;
    l.pp_s = l.pp_bytes_per_node > 0.0 ? l.pp_bytes_per_node / l.pp_cap_Bps : 0.0;
  }
  l.hidden_s = std::min(a.dp_overlap * l.dp_s, BACKWARD_SHARE * l.compute_s);
  return l;
}

double ParallelLayout::iteration_s(double dp_share, double pp_share) const {
  double dp_time_s = dp_s / std::max(dp_share, MIN_SHARE);
  double pp_time_s = pp_s / std::max(pp_share, MIN_SHARE);
  return compute_s + nvlink_s + std::max(std::max(0.0, dp_time_s - hidden_s), pp_time_s);
}

double ParallelLayout::progress_rate(double dp_share, double pp_share) const {
  if (dp_share >= 1.0 && pp_share >= 1.0) {
    return 1.0;
  }
  return iteration_s() / iteration_s(std::min(dp_share, 1.0), std::min(pp_share, 1.0));
}

double ParallelLayout::dp_average_Bps(double dp_share, double pp_share) const {
  return dp_bytes_per_node / iteration_s(dp_share, pp_share);
}

double ParallelLayout::pp_average_Bps(double dp_share, double pp_share) const {
  return pp_bytes_per_node / iteration_s(dp_share, pp_share);
}

} // namespace acme::model
