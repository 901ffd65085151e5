#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace acme::tools::calibrate {

/// Command-line options of acme-calibrate. Unset optional sizes get backend-dependent defaults
/// (resolve_plan): the CPU fallback uses smaller ones so that its default run takes well under a minute.
struct Options {
  double model_params = 7e9;             ///< parameters of the whole model
  double bytes_per_param = 14.0;         ///< model state per parameter (see README: bf16 weights + fp32 master + Adam)
  std::uint32_t tp = 1;                  ///< tensor-parallel degree
  std::uint32_t pp = 1;                  ///< pipeline-parallel degree
  std::uint32_t dp = 8;                  ///< data-parallel degree (the state is sharded over all GPUs)
  std::optional<double> shard_bytes_cap; ///< largest buffer measured
  std::uint32_t repeats = 5;
  std::string path = "."; ///< folder for the checkpoint and model files (local disk or shared FS)
  std::string out = "acme-calibration.yaml";
  std::string raw; ///< every sample as CSV; default: --out with .raw.csv
  bool force_cpu = false;
  std::optional<std::vector<std::uint32_t>> batch_sizes;
  std::optional<std::uint32_t> prompt_tokens;
  std::optional<std::uint32_t> train_tokens; ///< rows of the training compute loop's GEMM
  std::optional<std::uint32_t> gemm_hidden;  ///< default: derived from --model-params
  double sample_s = 0.1;                     ///< shortest timed sample of short kernels (repeated back to back)
  std::uint32_t metric_samples = 2000;
  std::uint32_t metric_sample_tokens = 256;
  std::uint64_t seed = 1;
  int device = 0;
  bool build_info = false;
  bool help = false;
  std::vector<std::string> argv; ///< the command line as given, echoed in the output
};

/// Parses argv (without the program name). Bad values throw acme::ConfigError naming the option.
Options parse_options(const std::vector<std::string>& args);

/// Usage text for --help.
std::string usage_text(bool cuda_build);

} // namespace acme::tools::calibrate
