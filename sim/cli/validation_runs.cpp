#include "sim/cli/validation_runs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "sim/metrics/atomic_file.hpp"
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

extern char** environ;

namespace acme::cli {
namespace {

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) {
    out.push_back(cell);
  }
  if (!line.empty() && line.back() == ',') {
    out.emplace_back();
  }
  return out;
}

std::uint32_t count_failures(const std::string& text) {
  std::uint32_t total = 0;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ';')) {
    auto colon = item.find(':');
    if (colon != std::string::npos) {
      total += static_cast<std::uint32_t>(std::stoul(item.substr(colon + 1)));
    }
  }
  return total;
}

void run_self(const ValidationContext& ctx, const std::vector<std::string>& args, const std::string& log) {
  std::vector<std::string> all{ctx.self_exe};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) {
    argv.push_back(a.data());
  }
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, ctx.self_exe.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  if (rc != 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::ifstream in(log);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    throw std::runtime_error("validation run failed: " + fmt::format("{}", fmt::join(args, " ")) + "\n" + text);
  }
}

} // namespace

void write_uniform_trace(const std::string& path, int jobs, std::uint32_t gpus, double work_s) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::string text = "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,queue,"
                     "gpu_time\n";
  for (int i = 0; i < jobs; ++i) {
    text += fmt::format("v{},validator,{},{},{},Pretrain,COMPLETED,2023-03-01 00:00:00+00:00,,,{},,{}\n", i,
                        (gpus + 7) / 8, gpus, gpus, work_s, work_s * gpus);
  }
  metrics::write_file_atomically(path, text);
}

std::string oracle_config(int nodes, int seed, double rate_per_1000_node_days, double downtime_s,
                          const std::string& policy) {
  return fmt::format(R"(seed: {}
clusters:
  - name: oracle
    nodes: {}
    gpus_per_node: 1
    cpu_job_cores_per_node: 1
    network: {{nic_bandwidth: 1GBps, nodes_per_leaf: 100, latency: 0s}}
    storage: {{bandwidth: 1000TBps, latency: 0s}}
workload: {{kind: trace, format: acme, path: trace.csv}}
failures:
  enabled: true
  leaf_switch: {{rate_per_1000_switch_days: 0}}
  categories:
    nvlink: {{rate_per_1000_node_days: {}, repair: 1s}}
    cuda: {{rate_per_1000_node_days: 0}}
    node: {{rate_per_1000_node_days: 0}}
    ecc: {{rate_per_1000_node_days: 0}}
    network: {{rate_per_1000_node_days: 0}}
    storage: {{rate_per_1000_node_days: 0}}
    connection: {{rate_per_1000_node_days: 0}}
checkpoint: {{policy: {}, mode: sync}}
recovery:
  policy: {{name: automatic, detect_crash: {}s, diagnose: 0s, pair_rounds: 1, pair_round_base: 0s,
           pair_round_per_node: 0s, human_share: 0}}
output: {{timeseries_interval: 1d}}
)",
                     seed, nodes, rate_per_1000_node_days, policy, downtime_s);
}

std::string acme_like_config(bool async) {
  return fmt::format(R"(seed: 1
clusters:
  - name: seren
    nodes: 286
    network: {{nics_per_node: 1, nic_bandwidth: 200Gbps, nodes_per_leaf: 20}}
    storage: {{bandwidth: 100GBps}}
workload: {{kind: trace, format: acme, path: trace.csv}}
checkpoint: {{policy: {{name: fixed, interval: 30min}}, mode: {}}}
output: {{timeseries_interval: 1d}}
)",
                     async ? "async" : "sync");
}

std::vector<JobMeasure> run_and_measure(const ValidationContext& ctx, const std::string& dir,
                                        const std::string& config) {
  std::filesystem::create_directories(dir);
  metrics::write_file_atomically(dir + "/config.yaml", config);
  run_self(ctx, {"run", dir + "/config.yaml", "-o", dir + "/out", "--quiet"}, dir + "/log.txt");
  std::ifstream in(dir + "/out/jobs.csv");
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header = split(line);
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < header.size(); ++i) {
    col[header[i]] = i;
  }
  std::vector<JobMeasure> out;
  while (std::getline(in, line)) {
    auto cells = split(line);
    JobMeasure m;
    m.wall_s = std::stod(cells.at(col.at("duration")));
    m.work_s = std::stod(cells.at(col.at("work_s")));
    m.stall_s = std::stod(cells.at(col.at("ckpt_stall_s")));
    m.restore_s = std::stod(cells.at(col.at("restore_s")));
    m.checkpoints = static_cast<std::uint32_t>(std::stoul(cells.at(col.at("checkpoints"))));
    m.attempts = static_cast<std::uint32_t>(std::stoul(cells.at(col.at("attempts"))));
    m.failures = count_failures(cells.at(col.at("failures")));
    out.push_back(m);
  }
  return out;
}

Costs measured_costs(const std::vector<JobMeasure>& jobs) {
  double stall = 0.0;
  double checkpoints = 0.0;
  double restore = 0.0;
  double restores = 0.0;
  for (const auto& j : jobs) {
    stall += j.stall_s;
    checkpoints += j.checkpoints;
    restore += j.restore_s;
    restores += j.attempts > 0 ? j.attempts - 1 : 0;
  }
  return Costs{checkpoints > 0 ? stall / checkpoints : 0.0, restores > 0 ? restore / restores : 0.0};
}

double mean_wall_s(const std::vector<JobMeasure>& jobs) {
  double total = 0.0;
  for (const auto& j : jobs) {
    total += j.wall_s;
  }
  return jobs.empty() ? 0.0 : total / static_cast<double>(jobs.size());
}

std::pair<double, double> interval_bracket_s(const std::vector<JobMeasure>& jobs) {
  for (const auto& j : jobs) {
    if (j.failures == 0 && j.checkpoints > 0) {
      return {j.work_s / (j.checkpoints + 1), j.work_s / j.checkpoints};
    }
  }
  return {0.0, 0.0};
}

double fitted_minimum(const std::vector<double>& xs, const std::vector<double>& ys) {
  std::size_t best = static_cast<std::size_t>(std::min_element(ys.begin(), ys.end()) - ys.begin());
  best = std::clamp<std::size_t>(best, 1, xs.size() - 2);
  // Least-squares parabola in u = log(x) through the five points around the minimum.
  std::size_t lo = best >= 2 ? best - 2 : 0;
  std::size_t hi = std::min(xs.size() - 1, best + 2);
  double s[5] = {0, 0, 0, 0, 0};
  double t[3] = {0, 0, 0};
  for (std::size_t i = lo; i <= hi; ++i) {
    double u = std::log(xs[i]);
    double p = 1.0;
    for (double& sk : s) {
      sk += p;
      p *= u;
    }
    t[0] += ys[i];
    t[1] += ys[i] * u;
    t[2] += ys[i] * u * u;
  }
  // Normal equations [s0 s1 s2; s1 s2 s3; s2 s3 s4] [c0 c1 c2] = t, solved by Cramer's rule.
  auto det = [](double a, double b, double c, double d, double e, double f, double g, double h, double i) {
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  };
  double d = det(s[0], s[1], s[2], s[1], s[2], s[3], s[2], s[3], s[4]);
  double c1 = det(s[0], t[0], s[2], s[1], t[1], s[3], s[2], t[2], s[4]) / d;
  double c2 = det(s[0], s[1], t[0], s[1], s[2], t[1], s[2], s[3], t[2]) / d;
  return c2 > 0.0 ? std::exp(-c1 / (2.0 * c2)) : xs[best];
}

Report::Report(std::string subject) : subject_(std::move(subject)) {
  std::printf("== acme-sim validate %s\n", subject_.c_str());
}

bool Report::check(const std::string& what, double simulated, double reference, double rel_tolerance) {
  double error = reference != 0.0 ? std::fabs(simulated - reference) / std::fabs(reference) : std::fabs(simulated);
  bool ok = error <= rel_tolerance;
  std::printf("%-40s simulated %14.6g  reference %14.6g  error %6.2f%% (tolerance %.2f%%)  %s\n", what.c_str(),
              simulated, reference, 100.0 * error, 100.0 * rel_tolerance, ok ? "PASS" : "FAIL");
  failed_ += ok ? 0 : 1;
  return ok;
}

bool Report::check_range(const std::string& what, double value, double low, double high) {
  bool ok = value >= low && value <= high;
  std::printf("%-40s %14.6g  expected within [%g, %g]  %s\n", what.c_str(), value, low, high, ok ? "PASS" : "FAIL");
  failed_ += ok ? 0 : 1;
  return ok;
}

int Report::finish(bool ok) {
  std::printf("== %s: %s (%d check%s failed)\n", subject_.c_str(), ok ? "PASS" : "FAIL", failed_,
              failed_ == 1 ? "" : "s");
  return ok ? 0 : 1;
}

} // namespace acme::cli
