#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/run/run_assembly.hpp"
#include <unistd.h>

using namespace acme;

// Runs under the fluid network model (one engine per process: one run per TEST_CASE).

namespace {

// Two Seren-like nodes (one 200 Gb/s NIC each, storage through it). A short global batch makes the
// 7B job's data-parallel all-reduce a large share of its iteration (comm-heavy): its ring asks for
// more than half of each NIC, so a checkpoint write sharing the NIC slows it.
constexpr const char* CONFIG = R"(seed: 3
clusters:
  - name: seren
    nodes: 2
    network: {nics_per_node: 1, nic_bandwidth: 200Gbps, storage_nics_per_node: 0, nodes_per_leaf: 2}
    storage: {bandwidth: 100GBps}
network: {model: fluid, tokens_per_iteration: 32768}
workload: {kind: synthetic}
output: {timeseries_interval: 10min}
)";
constexpr double WORK_S = 3600.0;

std::string temp_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("acme-net-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  return dir.string();
}

/// The last column (comm_slowdown) and the work_s column of the only job's row of jobs.csv.
std::vector<std::string> job_row(const std::string& out) {
  std::ifstream in(out + "/jobs.csv");
  std::string header;
  std::string row;
  std::getline(in, header);
  std::getline(in, row);
  std::vector<std::string> cells;
  std::stringstream s(row);
  for (std::string cell; std::getline(s, cell, ',');) {
    cells.push_back(cell);
  }
  if (!row.empty() && row.back() == ',') {
    cells.emplace_back();
  }
  return cells;
}

std::string run_one(const std::string& name, const std::vector<config::Override>& overrides, double work_s = WORK_S) {
  // One 16-GPU pretraining job of a 7B model, from a trace (the recorder names its user).
  std::string out = temp_dir(name);
  std::filesystem::create_directories(out);
  std::string trace = out + "-trace.csv";
  std::ofstream(trace) << "job_id,user,node_num,gpu_num,cpu_num,type,state,submit_time,start_time,end_time,duration,"
                          "queue,gpu_time,model_params\n"
                       << "pretrain,u,2,16,16,Pretrain,COMPLETED,2023-03-01 00:00:00+00:00,,," << work_s << ",,,7e9\n";
  std::vector<config::Override> all = overrides;
  all.push_back({"workload", "{kind: trace, format: acme, path: " + trace + "}"});
  config::Config cfg = config::load_config_text(CONFIG, "network_run.yaml", "", all);
  run::RunSetup setup;
  setup.out_dir = out;
  setup.simulation.check_invariants = true;
  run::make_run(cfg, std::move(setup))->run();
  std::filesystem::remove(trace);
  return out;
}

double comm_slowdown(const std::vector<std::string>& row) {
  return std::stod(row.back());
}

} // namespace

TEST_CASE("run::network: alone on its NICs a job runs at its uncontended pace", "[run][network]") {
  std::string out = run_one("alone", {});
  auto row = job_row(out);
  CHECK(row.at(row.size() - 4) == "4"); // tp
  CHECK(row.at(row.size() - 2) == "4"); // dp
  CHECK(comm_slowdown(row) == 1.0);
  std::filesystem::remove_all(out);
}

TEST_CASE("run::network: an async checkpoint persisting through the shared NIC slows its job's training",
          "[run][network]") {
  std::string out =
      run_one("checkpoint", {{"checkpoint.policy", "{name: fixed, interval: 10min}"}, {"checkpoint.mode", "async"}});
  auto row = job_row(out);
  double slowdown = comm_slowdown(row);
  CHECK(slowdown > 1.0);
  CHECK(slowdown < 1.5);
  std::ifstream summary(out + "/summary.json");
  std::stringstream text;
  text << summary.rdbuf();
  CHECK(text.str().find("\"network\": {\"model\": \"fluid\"") != std::string::npos);
  std::filesystem::remove_all(out);
}

TEST_CASE("run::network: a failed spine link slows the job whose ring crosses it until it is repaired",
          "[run][network]") {
  // One node per leaf: the job's ring crosses both leaves' single uplink, which a failure takes away
  // (the flows then crawl) until its repair 10 minutes later; links fail 20 times a day each.
  std::string out = run_one("link",
                            {{"clusters[0].network.nodes_per_leaf", "1"},
                             {"failures", "{enabled: true, leaf_switch: {rate_per_1000_switch_days: 0}, "
                                          "spine_link: {rate_per_1000_link_days: 20000, repair: 10min}}"}},
                            4 * WORK_S);
  auto row = job_row(out);
  CHECK(comm_slowdown(row) > 1.02);
  std::filesystem::remove_all(out);
}
