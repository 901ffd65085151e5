#include "tools/calibrate/report.hpp"

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tools/calibrate/checkpoint_file.hpp"
#include "tools/calibrate/stats.hpp"
#include <unistd.h>

namespace acme::tools::calibrate {
namespace {

constexpr double BYTES_PER_GIB = 1024.0 * 1024.0 * 1024.0;
constexpr int SIGNIFICANT_DIGITS = 6;

/// A number YAML 1.1 and 1.2 readers both take as a float ("7.0e+09", not "7e+09").
std::string num(double value) {
  std::array<char, 64> buf{};
  std::snprintf(buf.data(), buf.size(), "%.*g", SIGNIFICANT_DIGITS, value);
  std::string text = buf.data();
  auto e = text.find('e');
  if (e != std::string::npos && text.find('.') == std::string::npos) {
    text.insert(e, ".0");
  }
  return text;
}

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < ' ') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string summary_flow(const std::vector<double>& samples) {
  Summary s = summarise(samples);
  return "{median: " + num(s.median) + ", min: " + num(s.min) + ", max: " + num(s.max) + ", q1: " + num(s.q1) +
         ", q3: " + num(s.q3) + ", repeats: " + std::to_string(s.repeats) + "}";
}

template <class T>
std::string flow_list(const std::vector<T>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += (i == 0 ? "" : ", ") + num(static_cast<double>(items[i]));
  }
  return out + "]";
}

void write_quantities(std::ostream& out, const QuantityLog& log) {
  for (const Quantity& q : log.get_quantities()) {
    out << "  " << q.key << ": " << summary_flow(q.samples) << "\n";
  }
}

void write_machine(std::ostream& out, const RunReport& r) {
  out << "machine:\n"
      << "  host: " << quoted(r.machine.host) << "\n"
      << "  cpu_model: " << quoted(r.machine.cpu_model) << "\n"
      << "  date_utc: " << quoted(r.machine.date_utc) << "\n"
      << "  backend: " << r.device.backend << "\n"
      << "  device_name: " << quoted(r.device.device_name) << "\n"
      << "  device_memory_GiB: " << num(r.device.device_memory_bytes / BYTES_PER_GIB) << "\n"
      << "  driver_version: " << quoted(r.device.driver_version) << "\n"
      << "  cuda_runtime_version: " << quoted(r.device.runtime_version) << "\n"
      << "  gemm_library: " << quoted(r.device.gemm_library) << "\n"
      << "  gemm_dtype: " << quoted(r.device.gemm_dtype) << "\n";
}

std::string command_line(const Options& o) {
  std::string text;
  for (const auto& arg : o.argv) {
    text += (text.empty() ? "" : " ") + arg;
  }
  return text;
}

void write_options(std::ostream& out, const RunReport& r) {
  const Options& o = r.opts;
  const Plan& p = r.plan;
  const GemmShape& loop = r.checkpoint.compute_loop_gemm;
  out << "options:\n"
      << "  command_line: " << quoted(command_line(o)) << "\n"
      << "  model_params: " << num(o.model_params) << "\n"
      << "  bytes_per_param: " << num(o.bytes_per_param) << "\n"
      << "  tp: " << o.tp << "\n  pp: " << o.pp << "\n  dp: " << o.dp << "\n"
      << "  shard_bytes: " << num(p.shard_bytes) << "\n"
      << "  shard_bytes_cap: " << num(p.shard_bytes_cap) << "\n"
      << "  measured_bytes: " << p.measured_bytes << "\n"
      << "  weights_bytes: " << num(p.weights_bytes) << "\n"
      << "  measured_weights_bytes: " << p.measured_weights_bytes << "\n"
      << "  gemm_hidden: " << p.hidden << "\n"
      << "  train_gemm_mnk: " << flow_list(std::vector<std::size_t>{loop.m, loop.n, loop.k})
      << "\n  compute_loop_gemms: " << r.checkpoint.compute_loop_gemms << "\n"
      << "  prompt_tokens: " << p.prompt_tokens << "\n"
      << "  batch_sizes: " << flow_list(p.batch_sizes) << "\n"
      << "  metric_samples: " << o.metric_samples << "\n"
      << "  metric_sample_tokens: " << o.metric_sample_tokens << "\n"
      << "  repeats: " << o.repeats << "\n"
      << "  sample_s: " << num(o.sample_s) << "\n"
      << "  seed: " << o.seed << "\n"
      << "  path: " << quoted(o.path) << "\n"
      << "  path_fs_type: " << quoted(r.path_fs_type) << "\n"
      << "  page_cache_dropped: "
      << (r.checkpoint.page_cache_dropped && r.evaluation.page_cache_dropped ? "true" : "false") << "\n";
}

void write_evaluation(std::ostream& out, const EvalResults& e) {
  out << "evaluation:\n";
  write_quantities(out, e.quantities);
  out << "  inference_by_batch:\n";
  for (const InferencePoint& point : e.inference) {
    out << "    - batch: " << point.batch << "\n"
        << "      prefill_TFLOPs: " << summary_flow(point.prefill_TFLOPs) << "\n"
        << "      decode_TFLOPs: " << summary_flow(point.decode_TFLOPs) << "\n";
  }
}

} // namespace

std::string calibration_yaml(const RunReport& r) {
  std::ostringstream out;
  out << "# Written by acme-calibrate (tools/calibrate/README.md describes every field). Each quantity is\n"
      << "# {median, min, max, q1, q3, repeats} over the repeats; units are part of the key names.\n"
      << "schema_version: 1\nsource: measured\n";
  write_machine(out, r);
  write_options(out, r);
  out << "checkpoint:\n";
  write_quantities(out, r.checkpoint.quantities);
  write_evaluation(out, r.evaluation);
  out << "timings: # seconds for options.measured_bytes / measured_weights_bytes\n";
  write_quantities(out, r.checkpoint.timings);
  write_quantities(out, r.evaluation.timings);
  out << "checks: # sanity of the metric workload, not calibration values\n"
      << "  metric_exact_match_rate: " << num(r.evaluation.metric_scores.exact_match_rate) << "\n"
      << "  metric_mean_bleu: " << num(r.evaluation.metric_scores.mean_bleu) << "\n";
  return out.str();
}

std::string raw_csv(const RunReport& r) {
  std::ostringstream out;
  out << "section,key,repeat,value\n";
  auto rows = [&out](const std::string& section, const std::string& key, const std::vector<double>& samples) {
    for (std::size_t i = 0; i < samples.size(); ++i) {
      out << section << "," << key << "," << i << "," << num(samples[i]) << "\n";
    }
  };
  for (const auto* log : {&r.checkpoint.quantities, &r.evaluation.quantities}) {
    for (const Quantity& q : log->get_quantities()) {
      rows(log == &r.checkpoint.quantities ? "checkpoint" : "evaluation", q.key, q.samples);
    }
  }
  for (const InferencePoint& p : r.evaluation.inference) {
    rows("inference_by_batch", "batch_" + std::to_string(p.batch) + ".prefill_TFLOPs", p.prefill_TFLOPs);
    rows("inference_by_batch", "batch_" + std::to_string(p.batch) + ".decode_TFLOPs", p.decode_TFLOPs);
  }
  for (const auto* log : {&r.checkpoint.timings, &r.evaluation.timings}) {
    for (const Quantity& q : log->get_quantities()) {
      rows("timings", q.key, q.samples);
    }
  }
  return out.str();
}

void write_file_atomically(const std::string& path, const std::string& text) {
  std::filesystem::path target(path);
  std::filesystem::path folder = target.parent_path().empty() ? "." : target.parent_path();
  // Built by appending: GCC 12 at -O3 warns (-Wrestrict, a false positive) on "." + std::string.
  std::string temp_name = target.filename().string();
  temp_name.insert(0, 1, '.');
  temp_name.append(".tmp.").append(std::to_string(::getpid()));
  std::filesystem::path temp = folder / temp_name;
  {
    std::ofstream file(temp, std::ios::binary | std::ios::trunc);
    file << text;
    file.flush();
    if (!file) {
      std::filesystem::remove(temp);
      throw IoError(temp.string() + ": cannot write");
    }
  }
  std::error_code ec;
  std::filesystem::rename(temp, target, ec);
  if (ec) {
    std::filesystem::remove(temp);
    throw IoError(path + ": cannot rename the temporary file into place: " + ec.message());
  }
}

} // namespace acme::tools::calibrate
