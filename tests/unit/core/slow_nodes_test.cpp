#include <catch2/catch.hpp>

#include <utility>
#include <vector>

#include "sim/core/slow_nodes.hpp"
#include "tests/unit/core/core_fakes.hpp"

using namespace acme;
using test::FakeTimer;

namespace {

constexpr double SLOW_S = 3600.0;
constexpr double SPEED = 0.25;

struct Bench {
  Bench() {
    config.rate_per_1000_node_days = 1.0;
    config.speed = SPEED;
    config.duration = model::Distribution::fixed(SLOW_S);
    test::run_job(table, test::pretrain_job(1, 2, 10000.0)); // nodes 0 and 1
  }
  config::SlowConfig config;
  FakeTimer timer;
  core::JobTable table = test::one_cluster(4);
  model::ClusterRngs rng{5, "test", {"c"}};
  std::vector<std::pair<std::uint64_t, double>> paces;   ///< (job, pace) as told
  std::vector<std::pair<std::uint32_t, double>> evicted; ///< (node, remaining slow time) as told
  core::SlowNodes slow{
      config,
      table,
      timer,
      rng,
      [this](model::JobId id, core::JobRuntime&, double pace) { paces.emplace_back(model::to_index(id), pace); },
      [this](model::ClusterId, std::uint32_t node, double remaining_s) { evicted.emplace_back(node, remaining_s); }};
};

} // namespace

TEST_CASE("core::slow_nodes: a slow node sets its jobs' pace for its duration, then the next period is drawn",
          "[core][slow]") {
  Bench b;
  model::ClusterId c{0};
  b.slow.start();
  REQUIRE(b.timer.count<core::NodeSlowed>() == 4); // one draw per node

  b.timer.set_now(100.0);
  b.slow.on(core::NodeSlowed{c, 2, 1}); // node 2: no job there
  CHECK(b.paces.empty());
  b.slow.on(core::NodeSlowed{c, 1, 1});
  CHECK(b.slow.speed(c, 1) == SPEED);
  CHECK(b.slow.periods(c, 1) == 1);
  CHECK(b.paces == std::vector<std::pair<std::uint64_t, double>>{{1, SPEED}});
  CHECK(b.timer.last<core::NodeSpedUp>().first == 100.0 + SLOW_S);
  CHECK(b.slow.pace(c, b.table.clusters[0].view.job(model::JobId{1}).placement) == SPEED);

  b.slow.on(core::NodeSlowed{c, 1, 1}); // stale: the same draw again changes nothing
  CHECK(b.slow.periods(c, 1) == 1);

  std::size_t draws = b.timer.count<core::NodeSlowed>();
  b.timer.set_now(100.0 + SLOW_S);
  b.slow.on(core::NodeSpedUp{c, 1});
  CHECK(b.slow.speed(c, 1) == 1.0);
  CHECK(b.paces.back() == std::pair<std::uint64_t, double>{1, 1.0});
  CHECK(b.timer.count<core::NodeSlowed>() == draws + 1); // its next slow period
}

TEST_CASE("core::slow_nodes: off at rate 0, no draws", "[core][slow]") {
  Bench b;
  b.config.rate_per_1000_node_days = 0.0;
  b.slow.start();
  CHECK(b.timer.count<core::NodeSlowed>() == 0);
}

TEST_CASE("core::slow_nodes: a straggler running a job is evicted once noticed; an idle one is looked at again",
          "[core][slow]") {
  constexpr double NOTICE_S = 600.0;
  Bench b;
  b.config.evict_after_s = NOTICE_S;
  model::ClusterId c{0};
  b.slow.start();
  b.timer.set_now(100.0);
  b.slow.on(core::NodeSlowed{c, 1, 1}); // runs job 1
  b.slow.on(core::NodeSlowed{c, 2, 1}); // idle
  auto notices = [&] {
    std::vector<std::pair<double, std::uint32_t>> out;
    for (const auto& s : b.timer.scheduled) {
      if (const auto* e = std::get_if<core::SlowNoticed>(&s.event)) {
        out.emplace_back(s.time_s, e->node);
      }
    }
    return out;
  };
  REQUIRE(notices() == std::vector<std::pair<double, std::uint32_t>>{{700.0, 1}, {700.0, 2}});
  b.timer.set_now(700.0);
  b.slow.on(core::SlowNoticed{c, 1, 2}); // the onset's generation: the draw's + 1
  CHECK(b.evicted == std::vector<std::pair<std::uint32_t, double>>{{1, 100.0 + SLOW_S - 700.0}});
  b.slow.on(core::SlowNoticed{c, 2, 2});
  CHECK(b.evicted.size() == 1);                                           // idle: not evicted
  CHECK(notices().back() == std::pair<double, std::uint32_t>{1300.0, 2}); // looked at again
  b.timer.set_now(100.0 + SLOW_S);
  b.slow.on(core::NodeSpedUp{c, 2});
  b.slow.on(core::SlowNoticed{c, 2, 2}); // its period is over: stale
  CHECK(b.evicted.size() == 1);
}
