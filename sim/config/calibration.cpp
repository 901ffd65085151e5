// The calibration file: costs of checkpoints, restores and evaluation trials measured by
// tools/calibrate (acme-calibrate) or taken from published figures (configs/calibration/a100-spec.yaml).
// The schema is described field by field in tools/calibrate/README.md.
#include "sim/config/calibration.hpp"

#include <array>
#include <filesystem>

#include "sim/model/units.hpp"

namespace acme::config {
namespace {

constexpr std::int64_t SCHEMA_VERSION = 1;
constexpr double TERA = 1e12;
constexpr double ONE = 1.0;
const std::string EMBEDDED_NAME = "configs/calibration/a100-spec.yaml (embedded)";

/// How a quantity is checked: bandwidths, throughputs and times must be > 0; fractions >= 0.
enum class Sign { POSITIVE, NON_NEGATIVE };

struct Field {
  const char* key;
  const char* unit;
  Sign sign;
  double to_si; ///< factor from the file's unit to the struct's (GB/s -> B/s, TFLOP/s -> FLOP/s)
  double Calibration::*member;
};

const std::array CHECKPOINT_FIELDS = {
    Field{"d2h_pageable_bw_GBps", "GB/s", Sign::POSITIVE, model::GIGA, &Calibration::d2h_pageable_bw_Bps},
    Field{"d2h_pinned_bw_GBps", "GB/s", Sign::POSITIVE, model::GIGA, &Calibration::d2h_pinned_bw_Bps},
    Field{"h2d_pinned_bw_GBps", "GB/s", Sign::POSITIVE, model::GIGA, &Calibration::h2d_pinned_bw_Bps},
    Field{"async_snapshot_bw_GBps", "GB/s", Sign::POSITIVE, model::GIGA, &Calibration::async_snapshot_bw_Bps},
    Field{"async_compute_slowdown_fraction", "fraction", Sign::NON_NEGATIVE, ONE,
          &Calibration::async_compute_slowdown_fraction},
    Field{"async_stall_fraction", "fraction", Sign::NON_NEGATIVE, ONE, &Calibration::async_stall_fraction},
    Field{"serialise_bw_GBps", "GB/s", Sign::POSITIVE, model::GIGA, &Calibration::serialise_bw_Bps},
    Field{"storage_write_bw_GBps", "GB/s", Sign::POSITIVE, model::GIGA, &Calibration::storage_write_bw_Bps},
    Field{"storage_read_bw_GBps", "GB/s", Sign::POSITIVE, model::GIGA, &Calibration::storage_read_bw_Bps},
    Field{"restore_bw_GBps", "GB/s", Sign::POSITIVE, model::GIGA, &Calibration::restore_bw_Bps},
};

const std::array EVALUATION_FIELDS = {
    Field{"model_load_bw_GBps", "GB/s", Sign::POSITIVE, model::GIGA, &Calibration::model_load_bw_Bps},
    Field{"prefill_TFLOPs", "TFLOP/s", Sign::POSITIVE, TERA, &Calibration::prefill_flops_per_s},
    Field{"decode_TFLOPs", "TFLOP/s", Sign::POSITIVE, TERA, &Calibration::decode_flops_per_s},
    Field{"metric_tokens_per_s", "tokens/s", Sign::POSITIVE, ONE, &Calibration::metric_tokens_per_s},
    Field{"metric_samples_per_s", "samples/s", Sign::POSITIVE, ONE, &Calibration::metric_samples_per_s},
    Field{"trial_start_s", "s", Sign::POSITIVE, ONE, &Calibration::trial_start_s},
};
const std::string INFERENCE_KEY = "inference_by_batch";

// Sections that record how and where a calibration was made; read for validation only.
const std::vector<std::string> TOP_KEYS = {"schema_version", "source",     "machine", "options", "published",
                                           "checkpoint",     "evaluation", "timings", "checks"};
const std::vector<std::string> MACHINE_KEYS = {
    "host",         "cpu_model",         "date_utc",       "backend",
    "device_name",  "device_memory_GiB", "driver_version", "cuda_runtime_version",
    "gemm_library", "gemm_dtype"};
const std::vector<std::string> OPTION_KEYS = {"command_line",
                                              "model_params",
                                              "bytes_per_param",
                                              "tp",
                                              "pp",
                                              "dp",
                                              "shard_bytes",
                                              "shard_bytes_cap",
                                              "measured_bytes",
                                              "weights_bytes",
                                              "measured_weights_bytes",
                                              "gemm_hidden",
                                              "train_gemm_mnk",
                                              "compute_loop_gemms",
                                              "prompt_tokens",
                                              "batch_sizes",
                                              "metric_samples",
                                              "metric_sample_tokens",
                                              "repeats",
                                              "sample_s",
                                              "seed",
                                              "path",
                                              "path_fs_type",
                                              "page_cache_dropped"};
const std::vector<std::string> PUBLISHED_KEYS = {
    "hbm_bw_GBps", "hbm_achievable_fraction", "nvlink_bw_GBps",          "pcie_gen4_x16_peak_GBps",
    "ib_hdr_Gbps", "bf16_dense_peak_TFLOPs",  "gemm_achievable_fraction"};
const std::vector<std::string> TIMING_KEYS = {
    "sync_snapshot_s",      "async_snapshot_s", "compute_loop_s", "compute_loop_with_snapshot_s",
    "checkpoint_persist_s", "restore_s",        "model_load_s",   "metric_phase_s"};
const std::vector<std::string> CHECK_KEYS = {"metric_exact_match_rate", "metric_mean_bleu"};
const std::vector<std::string> SUMMARY_KEYS = {"median", "min", "max", "q1", "q3", "repeats"};
const std::vector<std::string> SOURCES = {"measured", "spec"};

std::string expectation(const char* unit, Sign sign) {
  return std::string(sign == Sign::POSITIVE ? "a positive number" : "a number >= 0") + " (" + unit +
         ") or {median: ..., min: ..., max: ..., q1: ..., q3: ..., repeats: ...}";
}

double checked(const Node& node, const char* unit, Sign sign) {
  double value = node.as_double();
  bool ok = sign == Sign::POSITIVE ? value > 0.0 : value >= 0.0;
  if (!ok) {
    node.fail("expected " + std::string(sign == Sign::POSITIVE ? "a positive number" : "a number >= 0") + " (" + unit +
              "), got " + node.as_string());
  }
  return value;
}

/// A summary's fields must be ordered min <= q1 <= median <= q3 <= max where given.
void check_summary_order(const Node& node, double median) {
  struct Bound {
    const char* key;
    bool below_median;
  };
  for (Bound b : {Bound{"min", true}, Bound{"q1", true}, Bound{"q3", false}, Bound{"max", false}}) {
    Node child = node[b.key];
    if (!child.is_defined()) {
      continue;
    }
    double v = child.as_double();
    if (b.below_median ? v > median : v < median) {
      child.fail(std::string("expected ") + b.key + (b.below_median ? " <= median" : " >= median") + " (" +
                 node["median"].as_string() + "), got " + child.as_string());
    }
  }
}

/// A quantity: a plain number or a summary mapping whose median is the value.
double read_quantity(const Node& parent, const char* key, const char* unit, Sign sign) {
  Node node = parent[key];
  if (!node.is_defined()) {
    node.fail("missing; expected " + expectation(unit, sign));
  }
  if (!node.is_map()) {
    return checked(node, unit, sign);
  }
  node.expect_keys(SUMMARY_KEYS);
  if (!node["median"].is_defined()) {
    node["median"].fail("missing; expected the median of the repeats");
  }
  double median = checked(node["median"], unit, sign);
  if (node["min"].is_defined()) {
    checked(node["min"], unit, sign);
  }
  check_summary_order(node, median);
  if (node["repeats"].is_defined()) {
    node["repeats"].as_count();
  }
  return median;
}

/// Reads every field of a section; keys outside `fields` (and `extra_keys`) are errors.
template <std::size_t N>
void read_fields(const Node& section, const std::array<Field, N>& fields, const std::vector<std::string>& extra_keys,
                 Calibration& out) {
  std::vector<std::string> accepted = extra_keys;
  for (const Field& f : fields) {
    accepted.emplace_back(f.key);
  }
  section.expect_keys(accepted);
  for (const Field& f : fields) {
    out.*(f.member) = read_quantity(section, f.key, f.unit, f.sign) * f.to_si;
  }
}

std::vector<InferenceCalibration> read_inference(const Node& evaluation) {
  Node list = evaluation[INFERENCE_KEY];
  if (!list.is_sequence() || list.size() == 0) {
    list.fail("expected a non-empty list of {batch, prefill_TFLOPs, decode_TFLOPs}");
  }
  std::vector<InferenceCalibration> points;
  for (std::size_t i = 0; i < list.size(); ++i) {
    Node item = list.at(i);
    item.expect_keys({"batch", "prefill_TFLOPs", "decode_TFLOPs"});
    InferenceCalibration p;
    p.batch = item["batch"].as_count();
    if (!points.empty() && p.batch <= points.back().batch) {
      item["batch"].fail("expected batch sizes in ascending order without repeats, got " + std::to_string(p.batch) +
                         " after " + std::to_string(points.back().batch));
    }
    p.prefill_flops_per_s = read_quantity(item, "prefill_TFLOPs", "TFLOP/s", Sign::POSITIVE) * TERA;
    p.decode_flops_per_s = read_quantity(item, "decode_TFLOPs", "TFLOP/s", Sign::POSITIVE) * TERA;
    points.push_back(p);
  }
  return points;
}

Node required_section(const Node& document, const char* key, const std::string& what) {
  Node section = document[key];
  if (!section.is_defined()) {
    section.fail("missing section; expected a mapping of " + what);
  }
  section.expect_map();
  return section;
}

/// Optional record sections: known keys, and (for numeric ones) values of the right sign.
void check_records(const Node& document, Calibration& out) {
  Node machine = document["machine"];
  if (machine.is_defined()) {
    machine.expect_keys(MACHINE_KEYS);
    for (const auto& key : machine.keys()) {
      machine[key].as_string();
    }
    out.backend = machine.get_or("backend", out.backend, &Node::as_string);
    out.device_name = machine.get_or("device_name", out.device_name, &Node::as_string);
  }
  if (document["options"].is_defined()) {
    document["options"].expect_keys(OPTION_KEYS);
  }
  struct Record {
    const char* section;
    const std::vector<std::string>& keys;
    const char* unit;
    Sign sign;
  };
  for (const Record& r : {Record{"published", PUBLISHED_KEYS, "as named", Sign::POSITIVE},
                          Record{"timings", TIMING_KEYS, "s", Sign::NON_NEGATIVE},
                          Record{"checks", CHECK_KEYS, "fraction", Sign::NON_NEGATIVE}}) {
    Node section = document[r.section];
    if (!section.is_defined()) {
      continue;
    }
    section.expect_keys(r.keys);
    for (const auto& key : section.keys()) {
      read_quantity(section, key.c_str(), r.unit, r.sign);
    }
  }
}

void check_header(const Node& document, Calibration& out) {
  Node version = document["schema_version"];
  if (version.is_defined() && version.as_int() != SCHEMA_VERSION) {
    version.fail("unsupported schema version " + version.as_string() + "; expected " + std::to_string(SCHEMA_VERSION));
  }
  Node source = document["source"];
  if (source.is_defined()) {
    out.source = source.as_string();
    if (out.source != SOURCES[0] && out.source != SOURCES[1]) {
      source.fail("unknown source \"" + out.source + "\"; expected one of: " + join(SOURCES));
    }
  }
}

} // namespace

Calibration parse_calibration(const Node& document, const std::string& origin) {
  if (!document.is_map()) {
    document.fail("expected a calibration mapping (checkpoint:, evaluation:, ...)");
  }
  document.expect_keys(TOP_KEYS);
  Calibration out;
  out.origin = origin;
  check_header(document, out);
  check_records(document, out);
  read_fields(required_section(document, "checkpoint", "checkpoint costs"), CHECKPOINT_FIELDS, {}, out);
  Node evaluation = required_section(document, "evaluation", "evaluation-trial costs");
  read_fields(evaluation, EVALUATION_FIELDS, {INFERENCE_KEY}, out);
  out.inference_by_batch = read_inference(evaluation);
  return out;
}

Calibration load_calibration(const Node& section, const std::string& base_dir) {
  if (!section.is_defined()) {
    return default_calibration();
  }
  // `calibration: FILE` or `calibration: {path: FILE}` name a file; a mapping without `path` is inline.
  Node path = section.is_scalar() ? section : section["path"];
  if (!section.is_scalar()) {
    section.expect_map();
    if (!path.is_defined()) {
      return parse_calibration(section, "inline");
    }
    if (section.size() != 1) {
      section.fail("expected either {path: FILE} or an inline calibration, not both");
    }
  }
  std::filesystem::path file(path.as_string());
  if (file.is_relative() && !base_dir.empty()) {
    file = (std::filesystem::path(base_dir) / file).lexically_normal();
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) {
    path.fail("cannot read calibration file \"" + file.string() + "\"; expected a readable YAML file");
  }
  return parse_calibration(load_yaml_file(file.string()), file.string());
}

const Calibration& default_calibration() {
  static const Calibration spec =
      parse_calibration(load_yaml_text(embedded_a100_spec_text(), EMBEDDED_NAME), EMBEDDED_NAME);
  return spec;
}

} // namespace acme::config
