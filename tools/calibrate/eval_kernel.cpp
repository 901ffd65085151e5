#include "tools/calibrate/eval_kernel.hpp"

#include <algorithm>
#include <cmath>

#include "tools/calibrate/buffers.hpp"
#include "tools/calibrate/checkpoint_file.hpp"
#include "tools/calibrate/fill_pattern.hpp"
#include "tools/calibrate/timer.hpp"

namespace acme::tools::calibrate {
namespace {

constexpr double BYTES_PER_GB = 1e9;
constexpr double FLOPS_PER_TFLOP = 1e12;
constexpr unsigned WEIGHTS_SEED = 2;

/// Model load: the weights file is written once (untimed), then each repeat drops it from the page
/// cache, reads it into pinned memory and copies it to the device.
void measure_model_load(Backend& backend, const Plan& plan, std::uint32_t repeats, const std::string& file,
                        EvalResults& out) {
  const std::size_t bytes = plan.measured_weights_bytes;
  HostBuffer pinned(backend, bytes, HostMemory::PINNED);
  DeviceBuffer weights(backend, bytes);
  ScratchFile scratch(file);
  {
    std::vector<std::byte> staging;
    fill_pattern(pinned.get(), bytes, WEIGHTS_SEED);
    write_checkpoint(file, pinned.get(), bytes, staging);
  }
  for (std::uint32_t r = 0; r < repeats; ++r) {
    out.page_cache_dropped = drop_page_cache(file) && out.page_cache_dropped;
    ReadTiming read = read_checkpoint(file, pinned.get(), bytes);
    double start = now_s();
    backend.copy_h2d(weights.get(), pinned.get(), bytes, HostMemory::PINNED);
    double load_s = read.read_s + (now_s() - start);
    out.quantities.add("model_load_bw_GBps", static_cast<double>(bytes) / load_s / BYTES_PER_GB);
    out.timings.add("model_load_s", load_s);
  }
}

/// TFLOP/s of back-to-back GEMMs of `shape`; each sample runs at least `sample_s`.
std::vector<double> measure_gemm_TFLOPs(Backend& backend, const GemmShape& shape, std::uint32_t repeats,
                                        double sample_s) {
  backend.prepare_gemm(shape);
  backend.run_gemms(1); // warm-up
  double start = now_s();
  backend.run_gemms(1);
  double one_s = std::max(now_s() - start, 1e-9);
  const int count = std::max(1, static_cast<int>(std::ceil(sample_s / one_s)));
  std::vector<double> samples;
  for (std::uint32_t r = 0; r < repeats; ++r) {
    start = now_s();
    backend.run_gemms(count);
    double elapsed = now_s() - start;
    samples.push_back(shape.flops() * count / elapsed / FLOPS_PER_TFLOP);
  }
  return samples;
}

void measure_inference(Backend& backend, const Plan& plan, const Options& opts, EvalResults& out) {
  for (const InferenceShapes& shapes : plan.inference) {
    out.inference.push_back(InferencePoint{shapes.batch,
                                           measure_gemm_TFLOPs(backend, shapes.prefill, opts.repeats, opts.sample_s),
                                           measure_gemm_TFLOPs(backend, shapes.decode, opts.repeats, opts.sample_s)});
  }
  // The headline figures are those of the largest batch size (README "Fields").
  for (double v : out.inference.back().prefill_TFLOPs) {
    out.quantities.add("prefill_TFLOPs", v);
  }
  for (double v : out.inference.back().decode_TFLOPs) {
    out.quantities.add("decode_TFLOPs", v);
  }
}

void measure_metric_phase(const Options& opts, EvalResults& out) {
  MetricCorpus corpus = generate_corpus(opts.metric_samples, opts.metric_sample_tokens, opts.seed);
  for (std::uint32_t r = 0; r < opts.repeats; ++r) {
    double start = now_s();
    out.metric_scores = score_corpus(corpus);
    double elapsed = now_s() - start;
    out.quantities.add("metric_tokens_per_s", static_cast<double>(corpus.candidate_tokens) / elapsed);
    out.quantities.add("metric_samples_per_s", static_cast<double>(corpus.references.size()) / elapsed);
    out.timings.add("metric_phase_s", elapsed);
  }
}

} // namespace

EvalResults run_eval_kernel(Backend& backend, const Plan& plan, const Options& opts, const std::string& file) {
  EvalResults out;
  measure_model_load(backend, plan, opts.repeats, file, out);
  measure_inference(backend, plan, opts, out);
  measure_metric_phase(opts, out);
  for (std::uint32_t r = 0; r < opts.repeats; ++r) {
    out.quantities.add("trial_start_s", backend.start_trial_s(plan.measured_weights_bytes));
  }
  return out;
}

} // namespace acme::tools::calibrate
