#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "policies/builtin.hpp"
#include "policies/placement/pack.hpp"
#include "sim/core/event_loop.hpp"
#include "tests/unit/core/core_fakes.hpp"
#include "tests/unit/test_paths.hpp"
#include <unistd.h>

using namespace acme;

namespace {
/// The tiny trace on the loop without SimGrid, driven by hand at each next time (transfers by a fake);
/// fails when one instant is processed `max_repeats` times in a row (the clock stopped).
struct TinyRun {
  config::Config cfg = config::load_config(test::source_path("configs/test/tiny.yaml"));
  policies::PolicyRegistries registries = policies::make_builtin_registries();
  model::NameTable users;
  metrics::RecorderOptions ro;
  test::FakeIo io;
  std::size_t repeats = 0; ///< most consecutive times one instant was processed

  void run(int max_repeats) {
    auto workload = workloads::make_workload({&cfg, &users});
    ro.out_dir = (std::filesystem::temp_directory_path() / ("acme-core-loop-" + std::to_string(::getpid()))).string();
    ro.epoch_unix_s = workload->epoch_unix_s();
    ro.clusters.push_back({"seren", 8 * 3600.0, 2, 16});
    metrics::Recorder recorder(ro, users);
    topology::ClusterGraph graph(cfg);
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
    double last_s = -1.0;
    std::size_t same = 0;
    for (double t = loop.next_time_s(); std::isfinite(t); t = loop.next_time_s()) {
      same = t == last_s ? same + 1 : 1;
      repeats = std::max(repeats, same);
      REQUIRE(same <= static_cast<std::size_t>(max_repeats));
      last_s = t;
      loop.process_instant(t);
    }
    loop.finish();
    metrics::RunInfo info;
    info.end_time_s = loop.now_s();
    info.jobs_submitted = loop.jobs_submitted();
    recorder.finish(info);
    submitted = loop.jobs_submitted();
    recorded = loop.jobs_recorded();
    rejected = loop.jobs_rejected();
    end_s = loop.now_s();
  }
  std::size_t submitted = 0;
  std::size_t recorded = 0;
  std::size_t rejected = 0;
  double end_s = 0.0;
};

/// FIFO (packing its jobs, as tiny.yaml's placement) that asks to be called again at the current instant
/// after every round.
class NaggingScheduler final : public policies::Scheduler {
public:
  explicit NaggingScheduler(std::unique_ptr<policies::Scheduler> inner) : inner_(std::move(inner)) {}
  std::vector<model::Decision> on_events(std::span<const model::Event> events,
                                         const model::ClusterView& cluster) override {
    auto out = inner_->on_events(events, cluster);
    out.emplace_back(model::CallMeLater{cluster.now_s()});
    return out;
  }

private:
  std::unique_ptr<policies::Scheduler> inner_;
};
} // namespace

// The engine without SimGrid: the loop driven by hand at each next time, transfers by a fake.
TEST_CASE("core::event_loop: the tiny trace runs without SimGrid, invariants checked at every instant",
          "[core][loop]") {
  TinyRun r;
  r.run(2);
  const auto& ro = r.ro;
  const auto& io = r.io;
  CHECK(r.submitted == 12);
  CHECK(r.recorded == 12);
  CHECK(r.rejected == 1);
  CHECK(r.end_s == Approx(4 * 3600.0 + 2 * 60.0));
  // As on SimGrid (tests/unit/engine/simulation_test.cpp): no transfer in this run.
  CHECK(io.started.empty());
  std::ifstream jobs(ro.out_dir + "/jobs.csv");
  std::stringstream text;
  text << jobs.rdbuf();
  CHECK(text.str().find("5,u01,2,16,32,,,Pretrain,COMPLETED,2023-03-01 00:03:00+08:00,2023-03-01 02:02:00+08:00") !=
        std::string::npos);
  std::filesystem::remove_all(ro.out_dir);
}

TEST_CASE("core::event_loop: a scheduler asking to be called at the current instant again and again cannot stop "
          "the clock",
          "[core][loop]") {
  TinyRun r;
  auto fifo = r.registries.schedulers.entries().at("fifo").make;
  r.registries.schedulers.add("fifo", "FIFO asking for a wake-up now after every round", {},
                              [fifo](const config::Node& params, const policies::PolicyContext& context) {
                                auto inner = fifo(params, context);
                                inner->set_placement(std::make_unique<policies::PackPlacement>());
                                return std::make_unique<NaggingScheduler>(std::move(inner));
                              });
  r.run(2); // an instant is processed once, or twice when the wake-up is due at it
  CHECK(r.recorded == 12);
  CHECK(r.end_s == Approx(4 * 3600.0 + 2 * 60.0));
  std::filesystem::remove_all(r.ro.out_dir);
}
