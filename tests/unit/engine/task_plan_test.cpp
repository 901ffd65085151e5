#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "policies/builtin.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/metrics/recorder.hpp"
#include "workloads/list_source.hpp"
#include "workloads/workload_source.hpp"
#include <unistd.h>

using namespace acme;
using workloads::ListSource;

namespace {

model::TaskStep step(model::TaskStep::Kind kind, double seconds, double bytes = 0.0) {
  model::TaskStep s;
  s.kind = kind;
  s.seconds = seconds;
  s.bytes = bytes;
  return s;
}

std::map<std::string, std::map<std::string, std::string>> read_jobs(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header;
  std::stringstream hs(line);
  for (std::string cell; std::getline(hs, cell, ',');) {
    header.push_back(cell);
  }
  std::map<std::string, std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    std::stringstream ls(line);
    std::map<std::string, std::string> row;
    std::size_t i = 0;
    for (std::string cell; std::getline(ls, cell, ',') && i < header.size(); ++i) {
      row[header[i]] = cell;
    }
    rows[row["job_id"]] = row;
  }
  return rows;
}

} // namespace

// One engine per process: exactly one Simulation in this test case.
TEST_CASE("engine::task_plan: trial phases, parallel lanes and spawned metric jobs", "[engine][eval]") {
  using K = model::TaskStep::Kind;
  constexpr double MODEL_BYTES = 14e9;  // a 7B model in bf16
  constexpr double NIC_BPS = 200e9 / 8; // HDR, the only bottleneck of a lone read
  auto config = config::load_config_text(R"(seed: 1
clusters:
  - name: seren
    nodes: 2
    network: {nic_bandwidth: 200Gbps, latency: 0s}
    storage: {bandwidth: 100GBps, latency: 0s}
workload: {kind: trace, path: unused.csv}
)",
                                         "task_plan_test.yaml", "/");
  model::JobSpec coupled;
  coupled.id = model::JobId{0};
  coupled.name = "coupled";
  coupled.type = model::JobType::EVAL;
  coupled.gpus = 1;
  coupled.eval_batch = 7;
  auto trial = std::make_shared<model::TaskPlan>();
  trial->prologue = {step(K::STORAGE_READ, 0.0, MODEL_BYTES), step(K::CPU, 60.0), step(K::GPU, 120.0),
                     step(K::GPU_IDLE, 45.0)};
  coupled.plan = trial;
  model::JobSpec node_job;
  node_job.id = model::JobId{1};
  node_job.name = "decoupled";
  node_job.type = model::JobType::EVAL;
  node_job.gpus = 8;
  node_job.eval_batch = 8;
  auto coordinator = std::make_shared<model::TaskPlan>();
  coordinator->prologue = {step(K::STORAGE_READ, 0.0, MODEL_BYTES)};
  auto metric = std::make_shared<model::JobSpec>();
  metric->name = "metric";
  metric->type = model::JobType::EVAL;
  metric->cpus = 4;
  metric->duration_s = 45.0;
  for (int lane = 0; lane < 2; ++lane) {
    model::TaskStep spawn = step(K::SPAWN, 0.0);
    auto named = std::make_shared<model::JobSpec>(*metric);
    named->name = "metric" + std::to_string(lane);
    spawn.follow_up = named;
    coordinator->lanes.push_back({step(K::CPU, 60.0), step(K::GPU, 100.0 + 20.0 * lane), spawn});
  }
  node_job.plan = coordinator;

  auto registries = policies::make_builtin_registries();
  model::NameTable users;
  users.intern("u");
  metrics::RecorderOptions ro;
  ro.out_dir = (std::filesystem::temp_directory_path() / ("acme-plan-" + std::to_string(::getpid()))).string();
  ro.clusters.push_back({"seren", 0.0, 2, 16, 100e9});
  metrics::Recorder recorder(ro, users);
  engine::Simulation sim(config, registries, std::make_unique<ListSource>(std::vector{coupled, node_job}), recorder);
  engine::RunResult result = sim.run();
  recorder.finish({result.end_time_s, result.jobs_submitted, 0, 0.0, {}, {}, {}, {}});
  auto rows = read_jobs(ro.out_dir + "/jobs.csv");
  REQUIRE(rows.size() == 4); // two plan jobs and the two metric jobs the coordinator spawned
  double load_s = MODEL_BYTES / NIC_BPS;
  // The coupled trial holds its GPU through all four phases.
  REQUIRE(std::stod(rows["coupled"]["duration"]) == Approx(load_s + 60.0 + 120.0 + 45.0));
  // The node job ends with its slowest lane; the metric phases ran as CPU jobs after each lane.
  REQUIRE(std::stod(rows["decoupled"]["duration"]) == Approx(load_s + 60.0 + 120.0));
  REQUIRE(std::stod(rows["metric1"]["duration"]) == Approx(45.0));
  REQUIRE(rows["metric1"]["type"] == "Eval");                         // AcmeTrace's spelling
  REQUIRE(result.end_time_s == Approx(load_s + 60.0 + 120.0 + 45.0)); // the second metric job
  // Both loads ran at once through different nodes: neither slowed the other.
  REQUIRE(result.storage_bytes_read.at(0) == Approx(2 * MODEL_BYTES));
  std::ifstream summary(ro.out_dir + "/summary.json");
  std::stringstream text;
  text << summary.rdbuf();
  // GPU busy: coupled 120 GPU-s; node job (1 GPU per lane) 100 + 120 GPU-s.
  REQUIRE(text.str().find("\"gpu_busy_hours\": " + fmt::format("{}", 340.0 / 3600.0)) != std::string::npos);
  std::filesystem::remove_all(ro.out_dir);
}
