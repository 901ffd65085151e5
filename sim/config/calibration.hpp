#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/node.hpp"

namespace acme::config {

/// Inference throughput at one batch size.
struct InferenceCalibration {
  std::uint32_t batch = 0;
  double prefill_flops_per_s = 0.0;
  double decode_flops_per_s = 0.0;

  friend bool operator==(const InferenceCalibration&, const InferenceCalibration&) = default;
};

/// Measured (or published) costs of checkpoints, restores and evaluation trials, per GPU. Written by
/// tools/calibrate (acme-calibrate) or taken from configs/calibration/a100-spec.yaml; every field is
/// described in tools/calibrate/README.md. The files give GB/s and TFLOP/s; these fields are bytes/s and
/// FLOP/s. A quantity given as {median, min, max, ...} contributes its median.
struct Calibration {
  std::string origin;  ///< the file it came from, or "inline"
  std::string source;  ///< "measured" or "spec"
  std::string backend; ///< "cuda", "cpu-fallback" or "spec"
  std::string device_name;

  // Checkpoint: one GPU's model-state shard.
  double d2h_pageable_bw_Bps = 0.0;             ///< device -> pageable host memory
  double d2h_pinned_bw_Bps = 0.0;               ///< device -> pinned host memory: a synchronous snapshot
  double h2d_pinned_bw_Bps = 0.0;               ///< pinned host memory -> device
  double async_snapshot_bw_Bps = 0.0;           ///< the snapshot copy on a side stream while training computes
  double async_compute_slowdown_fraction = 0.0; ///< extra compute time per second of async copy
  double async_stall_fraction = 0.0;            ///< training time lost to an async snapshot / a sync snapshot's
  double serialise_bw_Bps = 0.0;                ///< snapshot -> file format in host memory
  double storage_write_bw_Bps = 0.0;            ///< one writer: write + fsync to the measured file system
  double storage_read_bw_Bps = 0.0;             ///< one reader: file -> pinned host memory
  double restore_bw_Bps = 0.0;                  ///< file -> pinned host -> device, verified

  // Evaluation trial.
  double model_load_bw_Bps = 0.0;                       ///< weights file -> pinned host -> device
  double prefill_flops_per_s = 0.0;                     ///< at the largest batch size of inference_by_batch
  double decode_flops_per_s = 0.0;                      ///< at the largest batch size of inference_by_batch
  std::vector<InferenceCalibration> inference_by_batch; ///< ascending batch sizes
  double metric_tokens_per_s = 0.0;                     ///< CPU metric phase (exact match + BLEU-4), one core
  double metric_samples_per_s = 0.0;
  double trial_start_s = 0.0; ///< device context creation plus allocation

  friend bool operator==(const Calibration&, const Calibration&) = default;
};

/// The `calibration:` section of a run config: absent (the embedded A100 spec), an inline calibration
/// mapping, or `{path: FILE}` (a relative FILE is resolved against `base_dir`, the config's folder).
/// Missing, negative or unknown fields throw a located ConfigError.
Calibration load_calibration(const Node& section, const std::string& base_dir);

/// Reads one calibration document (the content of a calibration file).
Calibration parse_calibration(const Node& document, const std::string& origin);

/// configs/calibration/a100-spec.yaml, compiled into the binary.
const Calibration& default_calibration();
const std::string& embedded_a100_spec_text();

} // namespace acme::config
