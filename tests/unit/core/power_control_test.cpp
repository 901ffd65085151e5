#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "policies/builtin.hpp"
#include "sim/core/event_loop.hpp"
#include "sim/study/metrics_flatten.hpp"
#include "tests/unit/core/core_fakes.hpp"
#include "workloads/list_source.hpp"
#include <unistd.h>

using namespace acme;

namespace {

// Two nodes that idle_shutdown switches off after 10 minutes idle (no reserve); a boot takes 5 minutes.
constexpr const char* CONFIG = R"(
seed: 3
clusters:
  - name: test
    nodes: 2
    gpus_per_node: 8
    network: {nodes_per_leaf: 2}
    policies: {power: {name: idle_shutdown, idle_after: 10min, reserve: 0, boot_time: 5min}}
policies: {scheduler: {name: fifo}, placement: {name: pack}}
)";

model::JobSpec job(const char* name, std::uint32_t gpus, double submit_s, double duration_s) {
  model::JobSpec spec;
  spec.name = name;
  spec.type = model::JobType::PRETRAIN;
  spec.gpus = gpus;
  spec.submit_time_s = submit_s;
  spec.duration_s = duration_s;
  return spec;
}

/// Runs the jobs through the event loop (no SimGrid) and returns the output folder's files.
struct Run {
  std::string jobs_csv;
  std::string summary;
  std::string timeseries;

  double metric(const std::string& name) const {
    for (const auto& m : study::flatten_json_metrics(summary, "summary.json")) {
      if (m.name == name) {
        return m.value;
      }
    }
    FAIL("no metric " << name);
    return 0.0;
  }
};

Run run(const std::string& config_text, std::vector<model::JobSpec> jobs) {
  config::Config cfg = config::load_config_text(config_text, "power.yaml", "");
  auto registries = policies::make_builtin_registries();
  model::NameTable users;
  for (auto& spec : jobs) {
    spec.user = users.intern("u01");
  }
  metrics::RecorderOptions ro;
  ro.out_dir = (std::filesystem::temp_directory_path() / ("acme-power-" + std::to_string(::getpid()))).string();
  ro.clusters.push_back({"test", 0.0, 2, 16});
  metrics::Recorder recorder(ro, users);
  topology::ClusterGraph graph(cfg);
  test::FakeIo io;
  core::LoopSetup setup;
  setup.config = &cfg;
  setup.registries = &registries;
  setup.graph = &graph;
  setup.workload = std::make_unique<workloads::ListSource>(std::move(jobs));
  setup.recorder = &recorder;
  setup.io = &io;
  setup.storage_nic_bw_Bps = {25e9};
  setup.check_invariants = true;
  core::EventLoop loop(std::move(setup));
  for (double t = loop.next_time_s(); std::isfinite(t); t = loop.next_time_s()) {
    loop.process_instant(t);
  }
  loop.finish();
  metrics::RunInfo info;
  info.end_time_s = loop.now_s();
  recorder.finish(info);
  Run out;
  for (auto [name, text] : {std::pair{"/jobs.csv", &out.jobs_csv}, std::pair{"/summary.json", &out.summary},
                            std::pair{"/timeseries.csv", &out.timeseries}}) {
    std::ifstream in(ro.out_dir + name);
    std::stringstream s;
    s << in.rdbuf();
    *text = s.str();
  }
  std::filesystem::remove_all(ro.out_dir);
  return out;
}

/// Column `column` of the jobs.csv row of job `name`.
std::string field(const std::string& csv, const std::string& name, std::size_t column) {
  std::istringstream lines(csv);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(name + ",", 0) == 0) {
      std::istringstream cells(line);
      std::string cell;
      for (std::size_t i = 0; i <= column; ++i) {
        std::getline(cells, cell, ',');
      }
      return cell;
    }
  }
  return "(no row)";
}

constexpr std::size_t QUEUE_COLUMN = 15;

} // namespace

TEST_CASE("core::power_control: a job that needs switched-off nodes waits for their boot", "[core][power]") {
  // a uses node 0 for a minute; both nodes are idle 10 minutes later and go off; b (two nodes) comes
  // two hours in: both boot, and b starts 5 minutes after its submission.
  Run r = run(CONFIG, {job("a", 8, 0.0, 60.0), job("b", 16, 7200.0, 60.0)});
  CHECK(field(r.jobs_csv, "a", QUEUE_COLUMN) == "0");
  CHECK(field(r.jobs_csv, "b", QUEUE_COLUMN) == "300");
  CHECK(r.metric("clusters.test.power.boots") == 2);
  // Off from 10 minutes idle (node 1 idle from 0 s, node 0 from 60 s) until the boots at 7200 s (a
  // booting node draws idle power: it is not off).
  CHECK(r.metric("clusters.test.power.node_off_hours") == Approx(((7200.0 - 600.0) + (7200.0 - 660.0)) / 3600.0));
  // The time series counts the nodes off at the end of each interval: both at 01:00, none up (a's 8
  // GPUs for 60 s make 0.133 busy GPUs on average). In the second hour both are off (2 x 20 W standby),
  // plus a CPU server (520 W), two switches (500 W) and the storage (10 kW): 11.06 kW.
  std::istringstream lines(r.timeseries);
  std::string line;
  std::getline(lines, line);
  CHECK(line.ends_with(",up_nodes,power_kW,nodes_off"));
  std::getline(lines, line);
  CHECK(line.find(",test,0.13333333333333333,0,0,0,0,") != std::string::npos);
  CHECK(line.ends_with(",2"));
  std::getline(lines, line);
  INFO(line);
  REQUIRE(line.find(",test,0,1,16,0,0,") != std::string::npos);
  std::string power_kW = line.substr(line.find(",test,0,1,16,0,0,") + std::string(",test,0,1,16,0,0,").size());
  CHECK(std::stod(power_kW.substr(0, power_kW.find(','))) == Approx(11.06).epsilon(1e-9));
}

TEST_CASE("core::power_control: with `none` no node is ever switched off and jobs start at once", "[core][power]") {
  std::string config = CONFIG;
  config.replace(config.find("{name: idle_shutdown"),
                 std::string("{name: idle_shutdown, idle_after: 10min, reserve: 0, "
                             "boot_time: 5min}")
                     .size(),
                 "none");
  Run r = run(config, {job("a", 8, 0.0, 60.0), job("b", 16, 7200.0, 60.0)});
  CHECK(field(r.jobs_csv, "b", QUEUE_COLUMN) == "0");
  CHECK(r.metric("clusters.test.power.boots") == 0);
  CHECK(r.metric("clusters.test.power.node_off_hours") == 0);
}

TEST_CASE("core::power_control: the reserve stays on, so a small job never waits for a boot", "[core][power]") {
  std::string config = CONFIG;
  config.replace(config.find("reserve: 0"), 10, "reserve: 1");
  Run r = run(config, {job("a", 8, 0.0, 60.0), job("b", 8, 7200.0, 60.0), job("c", 16, 9000.0, 60.0)});
  CHECK(field(r.jobs_csv, "b", QUEUE_COLUMN) == "0");   // on the reserve node
  CHECK(field(r.jobs_csv, "c", QUEUE_COLUMN) == "300"); // one node on, one booted for it
  CHECK(r.metric("clusters.test.power.boots") == 2);    // b took the reserve: refilled; then one for c
}
