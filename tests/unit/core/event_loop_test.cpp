#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "policies/builtin.hpp"
#include "sim/core/event_loop.hpp"
#include "tests/unit/core/core_fakes.hpp"
#include "tests/unit/test_paths.hpp"
#include <unistd.h>

using namespace acme;

// The engine without SimGrid: the loop driven by hand at each next time, transfers by a fake.
TEST_CASE("core::event_loop: the tiny trace runs without SimGrid, invariants checked at every instant",
          "[core][loop]") {
  config::Config cfg = config::load_config(test::source_path("configs/test/tiny.yaml"));
  auto registries = policies::make_builtin_registries();
  model::NameTable users;
  auto workload = workloads::make_workload({&cfg, &users});
  metrics::RecorderOptions ro;
  ro.out_dir = (std::filesystem::temp_directory_path() / ("acme-core-loop-" + std::to_string(::getpid()))).string();
  ro.epoch_unix_s = workload->epoch_unix_s();
  ro.clusters.push_back({"seren", 8 * 3600.0, 2, 16});
  metrics::Recorder recorder(ro, users);
  topology::ClusterGraph graph(cfg);
  test::FakeIo io;
  core::LoopSetup setup;
  setup.config = &cfg;
  setup.registries = &registries;
  setup.graph = &graph;
  setup.workload = std::move(workload);
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
  info.jobs_submitted = loop.jobs_submitted();
  recorder.finish(info);
  // As on SimGrid (tests/unit/engine/simulation_test.cpp): no transfer in this run.
  CHECK(io.started.empty());
  CHECK(loop.jobs_submitted() == 12);
  CHECK(loop.jobs_recorded() == 12);
  CHECK(loop.jobs_rejected() == 1);
  CHECK(loop.now_s() == Approx(4 * 3600.0 + 2 * 60.0));
  std::ifstream jobs(ro.out_dir + "/jobs.csv");
  std::stringstream text;
  text << jobs.rdbuf();
  CHECK(text.str().find("5,u01,2,16,32,,,Pretrain,COMPLETED,2023-03-01 00:03:00+08:00,2023-03-01 02:02:00+08:00") !=
        std::string::npos);
  std::filesystem::remove_all(ro.out_dir);
}
