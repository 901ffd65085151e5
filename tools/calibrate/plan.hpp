#pragma once

#include <cstdint>
#include <vector>

#include "tools/calibrate/backend.hpp"
#include "tools/calibrate/options.hpp"

namespace acme::tools::calibrate {

/// The GEMM shapes of one inference batch size (the MLP up-projection of one tensor-parallel shard).
struct InferenceShapes {
  std::uint32_t batch = 0;
  GemmShape prefill; ///< rows = batch x prompt tokens
  GemmShape decode;  ///< rows = batch (one new token per sequence)
};

/// The sizes a run actually uses, after backend-dependent defaults.
struct Plan {
  bool cpu_fallback = false;
  double shard_bytes = 0.0; ///< full model-state shard per GPU
  double shard_bytes_cap = 0.0;
  std::size_t measured_bytes = 0; ///< bytes the checkpoint kernel moves (shard, capped)
  double weights_bytes = 0.0;     ///< bf16 weights per GPU (what a trial loads)
  std::size_t measured_weights_bytes = 0;
  std::uint32_t hidden = 0; ///< model width used for the GEMM shapes
  std::uint32_t prompt_tokens = 0;
  std::uint32_t train_tokens = 0;
  std::vector<std::uint32_t> batch_sizes;
  GemmShape train_gemm; ///< the training compute loop's GEMM
  std::vector<InferenceShapes> inference;
};

Plan resolve_plan(const Options& opts, bool cpu_fallback);

/// Model width for a parameter count: params ~ 12 * layers * hidden^2 (Kaplan et al. 2020, "Scaling Laws",
/// N = 12 n_layer d_model^2) with hidden / layers ~ 128 (GPT-3, Brown et al. 2020, Table 2.1: 4096/32 for
/// 6.7B, 12288/96 for 175B), rounded up to a multiple of 128.
std::uint32_t hidden_for_params(double params);

} // namespace acme::tools::calibrate
