#include "validate/workload/workload_checks.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/model/civil_time.hpp"
#include "validate/workload/workload_report.hpp"
#include "workloads/synthetic/cluster_generator.hpp"

namespace acme::validate {
namespace {

namespace synthetic = workloads::synthetic;

// Replicas pooled per cluster by default: enough for this many pretraining jobs, so that the sampling
// error of GPU-time-weighted shares (driven by the longest pretraining attempts) stays well inside the
// 3-point tolerance (a precision setting of the check, not a model parameter).
constexpr double POOLED_PRETRAIN_JOBS = 20000.0;

synthetic::SyntheticOptions synthetic_options(const config::Config& cfg) {
  const config::Node& section = cfg.workload;
  config::Node kind = section["kind"];
  if (!section.is_defined() || !kind.is_defined() || kind.as_string() != "synthetic") {
    (kind.is_defined() ? kind : section)
        .fail("validate workload checks the synthetic generator; expected a workload with kind: synthetic");
  }
  return synthetic::parse_synthetic_options(cfg, section);
}

struct Generated {
  ClusterStats stats;
  std::uint64_t jobs = 0;
  double wall_s = 0.0;
};

/// One run of one cluster's workload, measured (generation and measurement timed together).
Generated generate(const synthetic::ClusterModel& model, const synthetic::ClusterPlan& plan,
                   const synthetic::SyntheticOptions& options) {
  Generated out;
  model::NameTable users;
  auto t0 = std::chrono::steady_clock::now();
  synthetic::ClusterGenerator generator(model, plan, options, users);
  while (auto job = generator.next()) {
    out.stats.add(job->spec);
    ++out.jobs;
  }
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

/// Generates, compares and prints one cluster; returns its failed checks.
std::size_t check_cluster(const synthetic::ClusterPlan& plan, const synthetic::SyntheticOptions& options,
                          const synthetic::FittedParams& params, std::uint64_t replicas) {
  auto model = load_cluster_model(params, plan.preset);
  double volume = options.scale * options.days / model.period_days;
  if (replicas == 0) {
    const auto* pretrain = model.find(model::JobType::PRETRAIN);
    double pretrain_jobs = pretrain->count_share * model.gpu_jobs * volume;
    replicas = static_cast<std::uint64_t>(std::ceil(POOLED_PRETRAIN_JOBS / pretrain_jobs));
  }
  auto paper = load_paper_cluster(plan.preset);
  ClusterStats pooled;
  std::vector<std::vector<CheckRow>> runs;
  std::string timing;
  for (std::uint64_t r = 0; r < replicas; ++r) {
    auto run_options = options;
    run_options.seed = options.seed + r;
    auto [stats, jobs, wall_s] = generate(model, plan, run_options);
    if (r == 0) {
      char text[128];
      std::snprintf(text, sizeof text, "%llu jobs generated and measured in %.2f s (seed %llu)",
                    static_cast<unsigned long long>(jobs), wall_s, static_cast<unsigned long long>(options.seed));
      timing = text;
    }
    runs.push_back(compare_cluster(stats, paper, volume));
    pooled.merge(stats);
  }
  auto rows = compare_cluster(pooled, paper, volume, replicas);
  add_one_run_ranges(rows, runs);
  std::string title = "\ncluster " + plan.name + " (the paper's " + paper.name + "): " + std::to_string(replicas) +
                      " run(s) pooled (seeds " + std::to_string(options.seed) + ".." +
                      std::to_string(options.seed + replicas - 1) + "); one run: " + timing;
  return print_rows(stdout, title, rows);
}

} // namespace

int check_workload(const config::Config& cfg, std::uint64_t replicas) {
  auto options = synthetic_options(cfg);
  std::printf("validate workload: %s, preset %s, %g days from %s, scale %g, seed %llu\n", cfg.file.c_str(),
              options.preset.c_str(), options.days, model::format_datetime(options.start_unix_s, 0.0).c_str(),
              options.scale, static_cast<unsigned long long>(options.seed));
  std::size_t failed = 0;
  synthetic::FittedParams params(synthetic::acme_params_text(), "acme_params.txt");
  for (const auto& plan : options.clusters) {
    failed += check_cluster(plan, options, params, replicas);
  }
  std::printf("\n%s: %zu check(s) outside tolerance\n", failed == 0 ? "PASS" : "FAIL", failed);
  return failed == 0 ? 0 : 1;
}

} // namespace acme::validate
