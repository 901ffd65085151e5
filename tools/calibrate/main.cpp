// acme-calibrate: measures the checkpoint and evaluation-dispatch costs that acme-sim's models use and
// writes them as a calibration file. Built twice: acme-calibrate (CPU fallback only, always) and
// acme-calibrate-cuda (CUDA backend, when CMake finds nvcc; ACME_CALIBRATE_CUDA is then defined).
#include "sim/model/error.hpp"
#include "tools/calibrate/checkpoint_file.hpp"
#include "tools/calibrate/options.hpp"
#include "tools/calibrate/report.hpp"
#include "tools/calibrate/stats.hpp"
#if defined(ACME_CALIBRATE_CUDA)
#include "tools/calibrate/cuda_backend.hpp"
#endif

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace calib = acme::tools::calibrate;

namespace {

constexpr int EXIT_CHECK_FAILED = 1;
constexpr int EXIT_BAD_INPUT = 2;
constexpr int EXIT_RUNTIME = 3;
constexpr double BYTES_PER_MIB = 1024.0 * 1024.0;
#if defined(ACME_CALIBRATE_CUDA)
constexpr bool CUDA_BUILD = true;
#else
constexpr bool CUDA_BUILD = false;
#endif

const acme::Location WHERE{"acme-calibrate", 0, 0};

void check_paths(const calib::Options& opts) {
  std::string probe = opts.path + "/.acme-calibrate-probe-" + std::to_string(::getpid());
  {
    std::ofstream file(probe);
    if (!file) {
      throw acme::ConfigError(WHERE, "--path",
                              "cannot create a file in \"" + opts.path + "\"; expected an existing, writable folder");
    }
  }
  std::filesystem::remove(probe);
  std::filesystem::path out_folder = std::filesystem::path(opts.out).parent_path();
  if (!out_folder.empty() && !std::filesystem::is_directory(out_folder)) {
    throw acme::ConfigError(WHERE, "--out", "folder \"" + out_folder.string() + "\" does not exist");
  }
}

std::unique_ptr<calib::Backend> make_backend(const calib::Options& opts) {
#if defined(ACME_CALIBRATE_CUDA)
  if (!opts.force_cpu) {
    return calib::make_cuda_backend(opts.device);
  }
#else
  if (!opts.force_cpu) {
    std::fprintf(stderr, "acme-calibrate: built without CUDA; using the CPU fallback (acme-calibrate-cuda "
                         "is the GPU build)\n");
  }
#endif
  return calib::make_cpu_backend();
}

std::string raw_path(const calib::Options& opts) {
  if (!opts.raw.empty()) {
    return opts.raw;
  }
  std::filesystem::path out(opts.out);
  return (out.parent_path() / (out.stem().string() + ".raw.csv")).string();
}

void print_summary(const calib::RunReport& report) {
  std::printf("backend: %s (%s)\n", report.device.backend.c_str(), report.device.device_name.c_str());
  std::printf("measured %.1f MiB of a %.1f MiB state shard, %u repeats\n",
              static_cast<double>(report.plan.measured_bytes) / BYTES_PER_MIB, report.plan.shard_bytes / BYTES_PER_MIB,
              report.opts.repeats);
  for (const auto* log : {&report.checkpoint.quantities, &report.evaluation.quantities, &report.checkpoint.timings,
                          &report.evaluation.timings}) {
    for (const calib::Quantity& q : log->get_quantities()) {
      calib::Summary s = calib::summarise(q.samples);
      std::printf("  %-34s median %-12.6g min %-12.6g max %.6g\n", q.key.c_str(), s.median, s.min, s.max);
    }
  }
  std::printf("  metric check: exact match %.3f, mean BLEU-4 %.3f\n", report.evaluation.metric_scores.exact_match_rate,
              report.evaluation.metric_scores.mean_bleu);
}

int run(const calib::Options& opts) {
  check_paths(opts);
  std::unique_ptr<calib::Backend> backend = make_backend(opts);
  calib::RunReport report;
  report.device = backend->describe();
  report.opts = opts;
  report.plan = calib::resolve_plan(opts, report.device.backend == "cpu-fallback");
  report.machine = calib::describe_machine();
  report.path_fs_type = calib::file_system_type(opts.path);
  std::string scratch = opts.path + "/acme-calibrate-" + std::to_string(::getpid());
  std::fprintf(stderr, "acme-calibrate: checkpoint kernel on %s ...\n", report.device.backend.c_str());
  report.checkpoint = calib::run_checkpoint_kernel(*backend, report.plan, opts.repeats, scratch + ".ckpt");
  std::fprintf(stderr, "acme-calibrate: evaluation-dispatch kernel ...\n");
  report.evaluation = calib::run_eval_kernel(*backend, report.plan, opts, scratch + ".model");
  calib::write_file_atomically(opts.out, calib::calibration_yaml(report));
  calib::write_file_atomically(raw_path(opts), calib::raw_csv(report));
  print_summary(report);
  std::printf("wrote %s and %s\n", opts.out.c_str(), raw_path(opts).c_str());
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  try {
    calib::Options opts = calib::parse_options(args);
    if (opts.help) {
      std::fputs(calib::usage_text(CUDA_BUILD).c_str(), stdout);
      return 0;
    }
    if (opts.build_info) {
#if defined(ACME_CALIBRATE_CUDA)
      std::printf("%s\n", calib::cuda_build_info().c_str());
#else
      std::printf("backend: cpu-fallback only (built without the CUDA compiler)\n");
#endif
      return 0;
    }
    return run(opts);
  } catch (const acme::ConfigError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return EXIT_BAD_INPUT;
  } catch (const calib::VerificationError& e) {
    std::fprintf(stderr, "acme-calibrate: check failed: %s\n", e.what());
    return EXIT_CHECK_FAILED;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "acme-calibrate: error: %s\n", e.what());
    return EXIT_RUNTIME;
  }
}
