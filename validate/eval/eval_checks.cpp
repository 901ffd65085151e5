// `acme-sim validate eval`: the evaluation model against the paper's decoupled-evaluation results
// (Hu et al., NSDI'24; data/README.md, "Decoupled evaluation"). Every number comes from simulations of
// validate/eval/seren_like.yaml, each an `acme-sim run` in its own process (one SimGrid engine per
// process); the reference numbers and their sources are in validate/eval/reference.yaml.
//
// 1. HumanEval profile: 8 coupled HumanEval trials share one node's 25 Gb/s storage NIC (a node full of
//    trials); load + preprocess must exceed a minute and take 29.5% of the trial, metrics 19.0%,
//    inference 51.5% (5% relative tolerance).
// 2. Makespan of a 7B model on the catalogue's 63 datasets (request at time 0; last job end, metric jobs
//    included), coupled vs decoupled, on 1 and 4 nodes of 8 GPUs: the ratio must be within 15% of the
//    paper's 1.3x (1 node) and 1.8x (4 nodes).
// 3. Per-trial model-load throughput with N = 1, 2, 4, ..., 256 concurrent trials, 8 per node at most
//    (a node has 8 GPUs; the scheduler packs them): it must fall sharply from 1 to 8 trials (one node
//    NIC shared) and stay flat beyond (more nodes, each NIC the bottleneck, storage not).
#include "validate/eval/eval_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "sim/metrics/atomic_file.hpp"
#include "validate/embedded_files.hpp"
#include "validate/validation_report.hpp"
#include "workloads/eval/dataset_catalogue.hpp"

namespace acme::validate {
namespace {

constexpr std::uint32_t MAX_TRIALS = 256;
constexpr double BYTES_PER_PARAM = 2.0; // the model is loaded in bf16
constexpr double GIGA = 1e9;
constexpr double BITS_PER_BYTE = 8.0;
constexpr const char* CATALOGUE_HEADER = "name,samples,preprocess_s,inference_s,metric_s\n";

/// The scenario and what the checks read from it.
struct Platform {
  std::string scenario_path;
  std::uint32_t gpus_per_node = 0;
  double model_bytes = 0.0;
  double storage_nic_Bps = 0.0;
};

Platform load_platform(const ValidationContext& ctx) {
  Platform p;
  p.scenario_path = write_scenario(ctx, "eval/seren_like.yaml");
  config::Config cfg = config::load_config(p.scenario_path);
  p.gpus_per_node = cfg.clusters.at(0).gpus_per_node;
  p.model_bytes = cfg.workload["model_params"].as_double() * BYTES_PER_PARAM;
  p.storage_nic_Bps = cfg.clusters.at(0).network.storage_nic_bw_Bps;
  return p;
}

/// A run of the request on `nodes` nodes (the request spread over `request_nodes`).
RunMeasures run_request(const ValidationContext& ctx, const Platform& p, const std::string& id, std::uint32_t nodes,
                        std::uint32_t request_nodes, const std::string& catalogue, const std::string& dispatch) {
  ScenarioRun run{id,
                  1,
                  {{"clusters[0].nodes", std::to_string(nodes)},
                   {"workload.nodes", std::to_string(request_nodes)},
                   {"workload.catalogue", catalogue},
                   {"workload.dispatch.name", dispatch}}};
  return run_scenario(ctx, p.scenario_path, run);
}

std::string write_catalogue(const ValidationContext& ctx, const std::string& id, const std::string& rows) {
  std::string path = input_dir(ctx, id) + "/catalogue.csv";
  metrics::write_file_atomically(path, CATALOGUE_HEADER + rows);
  return path;
}

bool check_profile(const ValidationContext& ctx, const Platform& p, const ReferenceTable& refs,
                   ValidationReport& report) {
  auto catalogue = workloads::eval::builtin_catalogue();
  auto it = std::find_if(catalogue.begin(), catalogue.end(), [](const auto& d) { return d.name == "humaneval"; });
  if (it == catalogue.end()) {
    report.line("the built-in catalogue has no humaneval row");
    return false;
  }
  std::string rows;
  for (std::uint32_t i = 0; i < p.gpus_per_node; ++i) {
    rows += fmt::format("humaneval.{},{},{},{},{}\n", i, it->samples, it->preprocess_s, it->inference_s, it->metric_s);
  }
  auto jobs = run_request(ctx, p, "humaneval", 1, 1, write_catalogue(ctx, "humaneval", rows), "coupled").jobs;
  double trial_s = mean_wall_s(jobs);
  double load_preprocess_s = trial_s - it->inference_s - it->metric_s;
  report.line("HumanEval, %u coupled trials on one node: trial %.1f s = load + preprocess %.1f s + inference %.1f s + "
              "metrics %.1f s",
              p.gpus_per_node, trial_s, load_preprocess_s, it->inference_s, it->metric_s);
  bool ok = report.check_range("HumanEval load + preprocess (s)", load_preprocess_s,
                               refs.at("humaneval_load_preprocess_s").low, trial_s);
  ok = report.check("HumanEval load + preprocess share", load_preprocess_s / trial_s,
                    refs.at("humaneval_load_preprocess_share")) &&
       ok;
  ok = report.check("HumanEval metric share", it->metric_s / trial_s, refs.at("humaneval_metric_share")) && ok;
  return report.check("HumanEval inference share", it->inference_s / trial_s, refs.at("humaneval_inference_share")) &&
         ok;
}

/// Makespan of the 7B request on `nodes` nodes (the request's feedback latency: it is submitted at 0).
double makespan_s(const ValidationContext& ctx, const Platform& p, ValidationReport& report,
                  const std::string& dispatch, std::uint32_t nodes) {
  auto run = run_request(ctx, p, dispatch + "-" + std::to_string(nodes), nodes, nodes, "builtin", dispatch);
  auto& m = run.metrics;
  const std::string e = "clusters.seren.evaluation.";
  report.line("  %-9s %u node%s: %3zu jobs, makespan %7.0f s; GPU-hours held %6.2f, computing %6.2f, idle %6.2f",
              dispatch.c_str(), nodes, nodes == 1 ? " " : "s", run.jobs.size(), m[e + "feedback_latency_s.max"],
              m[e + "gpu_hours_in_plans"], m[e + "gpu_busy_hours"], m[e + "gpu_idle_hours"]);
  return m[e + "feedback_latency_s.max"];
}

bool check_ratios(const ValidationContext& ctx, const Platform& p, const ReferenceTable& refs,
                  ValidationReport& report) {
  std::size_t datasets = workloads::eval::builtin_catalogue().size();
  report.line("7B model on the built-in catalogue's %zu datasets, request at 0 s:", datasets);
  bool ok = report.check_range("datasets in the catalogue", static_cast<double>(datasets), refs.at("datasets"));
  for (auto [nodes, key] : {std::pair{1u, "makespan_ratio_one_node"}, std::pair{4u, "makespan_ratio_four_nodes"}}) {
    double coupled = makespan_s(ctx, p, report, "coupled", nodes);
    double decoupled = makespan_s(ctx, p, report, "decoupled", nodes);
    ok = report.check(fmt::format("makespan ratio coupled/decoupled, {} node{}", nodes, nodes == 1 ? "" : "s"),
                      coupled / decoupled, refs.at(key)) &&
         ok;
  }
  return ok;
}

/// Mean per-trial load throughput (B/s) of `trials` concurrent model loads, a node full of them at most.
double load_throughput_Bps(const ValidationContext& ctx, const Platform& p, std::uint32_t trials) {
  std::string id = "load-" + std::to_string(trials);
  std::string rows;
  for (std::uint32_t i = 0; i < trials; ++i) {
    rows += fmt::format("load.{},1,0,0,0\n", i);
  }
  std::uint32_t nodes = (trials + p.gpus_per_node - 1) / p.gpus_per_node;
  auto jobs = run_request(ctx, p, id, nodes, 1, write_catalogue(ctx, id, rows), "coupled").jobs;
  double total = 0.0;
  for (const auto& j : jobs) {
    total += p.model_bytes / j.wall_s;
  }
  return total / static_cast<double>(jobs.size());
}

bool check_load_curve(const ValidationContext& ctx, const Platform& p, const ReferenceTable& refs,
                      ValidationReport& report) {
  report.line("per-trial model-load throughput (%.0f GB each; %.0f Gb/s = %.3f GB/s storage NIC per node):",
              p.model_bytes / GIGA, p.storage_nic_Bps * BITS_PER_BYTE / GIGA, p.storage_nic_Bps / GIGA);
  std::vector<std::pair<std::uint32_t, double>> curve;
  for (std::uint32_t n = 1; n <= MAX_TRIALS; n *= 2) {
    double tp = load_throughput_Bps(ctx, p, n);
    std::uint32_t per_node = std::min(n, p.gpus_per_node);
    report.line("  %3u trials (%2u per node on %2u node%s): %6.3f GB/s per trial", n, per_node,
                (n + p.gpus_per_node - 1) / p.gpus_per_node, n > p.gpus_per_node ? "s" : " ", tp / GIGA);
    curve.emplace_back(n, tp);
  }
  double lone = curve.front().second;
  double full = std::find_if(curve.begin(), curve.end(), [&](const auto& point) {
                  return point.first == p.gpus_per_node;
                })->second;
  bool ok = report.check_range("throughput at 8/node over 1 trial", full / lone, refs.at("load_throughput_full_node"));
  double low = full;
  double high = full;
  for (const auto& [n, tp] : curve) {
    if (n >= p.gpus_per_node) {
      low = std::min(low, tp);
      high = std::max(high, tp);
    }
  }
  return report.check_range("beyond 8 trials: min / max throughput", low / high, refs.at("load_throughput_flat")) && ok;
}

} // namespace

int check_eval(const ValidationContext& ctx) {
  auto start = std::chrono::steady_clock::now();
  ValidationReport report("eval");
  ReferenceTable refs(validation_file("eval/reference.yaml"), "validate/eval/reference.yaml");
  Platform platform = load_platform(ctx);
  bool ok = check_profile(ctx, platform, refs, report);
  ok = check_ratios(ctx, platform, refs, report) && ok;
  ok = check_load_curve(ctx, platform, refs, report) && ok;
  std::chrono::duration<double> wall = std::chrono::steady_clock::now() - start;
  report.line("(%.1f s of wall time)", wall.count());
  return report.finish(ok);
}

} // namespace acme::validate
