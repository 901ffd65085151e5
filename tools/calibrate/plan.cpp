#include "tools/calibrate/plan.hpp"

#include <algorithm>
#include <cmath>

namespace acme::tools::calibrate {
namespace {

constexpr double PARAMS_PER_LAYER_PER_HIDDEN2 = 12.0; // Kaplan et al. 2020: N = 12 n_layer d_model^2
constexpr double HIDDEN_PER_LAYER = 128.0;            // GPT-3 Table 2.1: d_model / n_layers
constexpr std::uint32_t HIDDEN_MULTIPLE = 128;
constexpr std::uint32_t FFN_MULTIPLIER = 4; // MLP width = 4 x hidden (GPT-3)
constexpr double BF16_BYTES = 2.0;          // inference weights in bf16
constexpr std::size_t PAGE_BYTES = 4096;

// Defaults for a GPU (a short run of a few minutes on an A100/H100) and smaller ones for the CPU
// fallback (a default run well under a minute on a laptop core).
constexpr double GPU_SHARD_CAP_BYTES = 2.0 * 1024 * 1024 * 1024;
constexpr double CPU_SHARD_CAP_BYTES = 256.0 * 1024 * 1024;
constexpr std::uint32_t GPU_PROMPT_TOKENS = 512;
constexpr std::uint32_t CPU_PROMPT_TOKENS = 128;
constexpr std::uint32_t GPU_TRAIN_TOKENS = 4096;
constexpr std::uint32_t CPU_TRAIN_TOKENS = 512;
constexpr std::uint32_t CPU_MAX_HIDDEN = 1024;
const std::vector<std::uint32_t> GPU_BATCH_SIZES = {1, 8, 32, 128};
const std::vector<std::uint32_t> CPU_BATCH_SIZES = {1, 8};

std::size_t capped_page_multiple(double bytes, double cap) {
  double capped = std::min(bytes, cap);
  auto pages = static_cast<std::size_t>(capped / static_cast<double>(PAGE_BYTES));
  return std::max<std::size_t>(pages, 1) * PAGE_BYTES;
}

} // namespace

std::uint32_t hidden_for_params(double params) {
  double hidden = std::cbrt(params * HIDDEN_PER_LAYER / PARAMS_PER_LAYER_PER_HIDDEN2);
  auto multiples = static_cast<std::uint32_t>(std::ceil(hidden / HIDDEN_MULTIPLE));
  return std::max<std::uint32_t>(multiples, 1) * HIDDEN_MULTIPLE;
}

Plan resolve_plan(const Options& opts, bool cpu_fallback) {
  Plan plan;
  plan.cpu_fallback = cpu_fallback;
  const double gpus = static_cast<double>(opts.tp) * opts.pp * opts.dp;
  plan.shard_bytes = opts.model_params * opts.bytes_per_param / gpus;
  plan.shard_bytes_cap = opts.shard_bytes_cap.value_or(cpu_fallback ? CPU_SHARD_CAP_BYTES : GPU_SHARD_CAP_BYTES);
  plan.measured_bytes = capped_page_multiple(plan.shard_bytes, plan.shard_bytes_cap);
  plan.weights_bytes = opts.model_params * BF16_BYTES / (static_cast<double>(opts.tp) * opts.pp);
  plan.measured_weights_bytes = capped_page_multiple(plan.weights_bytes, plan.shard_bytes_cap);

  std::uint32_t derived = hidden_for_params(opts.model_params);
  plan.hidden = opts.gemm_hidden.value_or(cpu_fallback ? std::min(derived, CPU_MAX_HIDDEN) : derived);
  plan.prompt_tokens = opts.prompt_tokens.value_or(cpu_fallback ? CPU_PROMPT_TOKENS : GPU_PROMPT_TOKENS);
  plan.train_tokens = opts.train_tokens.value_or(cpu_fallback ? CPU_TRAIN_TOKENS : GPU_TRAIN_TOKENS);
  plan.batch_sizes = opts.batch_sizes.value_or(cpu_fallback ? CPU_BATCH_SIZES : GPU_BATCH_SIZES);
  std::sort(plan.batch_sizes.begin(), plan.batch_sizes.end());
  plan.batch_sizes.erase(std::unique(plan.batch_sizes.begin(), plan.batch_sizes.end()), plan.batch_sizes.end());

  const std::size_t k = plan.hidden;
  const std::size_t n = std::max<std::size_t>(1, std::size_t{FFN_MULTIPLIER} * plan.hidden / opts.tp);
  plan.train_gemm = GemmShape{plan.train_tokens, n, k};
  for (std::uint32_t batch : plan.batch_sizes) {
    plan.inference.push_back(
        InferenceShapes{batch, GemmShape{std::size_t{batch} * plan.prompt_tokens, n, k}, GemmShape{batch, n, k}});
  }
  return plan;
}

} // namespace acme::tools::calibrate
