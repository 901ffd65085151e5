#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "policies/builtin.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/metrics/recorder.hpp"
#include "tests/unit/test_paths.hpp"
#include "workloads/workload_source.hpp"

using namespace acme;

namespace {
std::string temp_dir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("acme-engine-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir.string();
}
} // namespace

// One engine per process: this test case builds exactly one Simulation.
TEST_CASE("engine::simulation: the tiny trace runs with invariants checked at every instant", "[engine][run]") {
  config::Config cfg = config::load_config(test::source_path("configs/test/tiny.yaml"));
  auto registries = policies::make_builtin_registries();
  model::NameTable users;
  auto workload = workloads::make_workload({&cfg, &users});
  metrics::RecorderOptions ro;
  ro.out_dir = temp_dir("tiny");
  ro.epoch_unix_s = workload->epoch_unix_s();
  ro.clusters.push_back({"seren", 8 * 3600.0, 2, 16});
  metrics::Recorder recorder(ro, users);
  engine::SimulationOptions so;
  so.check_invariants = true;
  engine::Simulation sim(cfg, registries, std::move(workload), recorder, so);
  engine::RunResult result = sim.run();
  metrics::RunInfo info;
  info.end_time_s = result.end_time_s;
  info.jobs_submitted = result.jobs_submitted;
  recorder.finish(info);
  REQUIRE(result.jobs_submitted == 12);
  REQUIRE(result.jobs_recorded == 12); // every submitted job accounted for exactly once
  REQUIRE(result.jobs_rejected == 1);  // the 32-GPU job on a 16-GPU cluster
  // Strict FIFO: the 16-GPU job (submitted 00:03) waits for both nodes (free at 02:02), and the
  // jobs behind it wait until it finishes at 03:02; the last one (8 GPUs, 1 h) ends at 04:02.
  REQUIRE(result.end_time_s == Approx(4 * 3600.0 + 2 * 60.0));
  std::ifstream jobs(ro.out_dir + "/jobs.csv");
  std::stringstream text;
  text << jobs.rdbuf();
  REQUIRE(text.str().find("5,u01,2,16,32,,,Pretrain,COMPLETED,2023-03-01 00:03:00+08:00,2023-03-01 02:02:00+08:00") !=
          std::string::npos);
  std::filesystem::remove_all(ro.out_dir);
}
