#include <catch2/catch.hpp>

#include "policies/builtin.hpp"
#include "policies/power/idle_shutdown.hpp"
#include "tests/unit/error_of.hpp"
#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;

namespace {

std::vector<model::NodeId> nodes(std::initializer_list<std::uint32_t> ids) {
  std::vector<model::NodeId> out;
  for (std::uint32_t n : ids) {
    out.push_back(model::NodeId{n});
  }
  return out;
}

/// What the engine does with a decision: switched-off nodes leave service, booted ones come back.
void switch_off(model::ClusterView& view, const std::vector<model::NodeId>& off) {
  for (model::NodeId n : off) {
    view.set_node_up(n, false);
    view.set_node_power(n, model::NodePower::OFF);
  }
}

void booted(model::ClusterView& view, model::NodeId n) {
  view.set_node_power(n, model::NodePower::ON);
  view.set_node_up(n, true);
}

policies::IdleShutdown make(double idle_after_s, std::uint32_t reserve, double boot_s) {
  policies::IdleShutdownParams p;
  p.idle_after_s = idle_after_s;
  p.reserve = reserve;
  p.boot_time_s = boot_s;
  return policies::IdleShutdown(p);
}

} // namespace

TEST_CASE("policies::idle_shutdown: idle nodes go off after idle_after, the reserve stays on", "[policies][power]") {
  model::ClusterView view(test::make_shape(4, 8));
  auto policy = make(100.0, 1, 50.0);
  auto d = policy.on_instant(nodes({0, 1, 2, 3}), view);
  CHECK(d.power_off.empty());
  CHECK(d.boot.empty());
  CHECK(d.call_back_at_s == 100.0);
  view.set_now(99.0);
  CHECK(policy.on_instant({}, view).power_off.empty());
  view.set_now(100.0);
  d = policy.on_instant({}, view);
  CHECK(d.power_off == nodes({0, 1, 2})); // the longest idle first; one idle node stays on
  switch_off(view, d.power_off);
  view.set_now(500.0);
  d = policy.on_instant({}, view);
  CHECK(d.power_off.empty()); // the reserve
  CHECK(d.boot.empty());
  CHECK(view.powered_off_nodes() == 3);
}

TEST_CASE("policies::idle_shutdown: a node taken before idle_after stays on", "[policies][power]") {
  model::ClusterView view(test::make_shape(2, 8));
  auto policy = make(100.0, 0, 50.0);
  policy.on_instant(nodes({0, 1}), view);
  view.set_now(50.0);
  view.add_job(test::make_job(1, 8, 50.0, 1000.0));
  view.start_job(model::JobId{1}, {model::NodeShare{model::NodeId{0}, 8}});
  view.set_now(100.0);
  CHECK(policy.on_instant({}, view).power_off == nodes({1}));
  view.set_now(120.0);
  view.stop_job(model::JobId{1});
  view.remove_job(model::JobId{1});
  auto d = policy.on_instant(nodes({0}), view); // idle again from 120 s
  CHECK(d.power_off.empty());
  CHECK(d.call_back_at_s == 220.0);
}

TEST_CASE("policies::idle_shutdown: the queue's demand and the reserve boot switched-off nodes", "[policies][power]") {
  model::ClusterView view(test::make_shape(4, 8));
  auto policy = make(100.0, 1, 50.0);
  policy.on_instant(nodes({0, 1, 2, 3}), view);
  view.set_now(100.0);
  switch_off(view, policy.on_instant({}, view).power_off); // nodes 0, 1, 2 off; 3 idle (the reserve)
  view.set_now(150.0);
  view.add_job(test::make_job(1, 16, 150.0, 1000.0)); // needs two nodes: one is on
  auto d = policy.on_instant({}, view);
  CHECK(d.boot == nodes({0}));
  CHECK(d.power_off.empty());
  view.set_node_power(model::NodeId{0}, model::NodePower::BOOTING);
  CHECK(policy.on_instant({}, view).boot.empty()); // the boot under way covers the demand
  view.set_now(200.0);
  booted(view, model::NodeId{0});
  view.start_job(model::JobId{1}, {model::NodeShare{model::NodeId{0}, 8}, model::NodeShare{model::NodeId{3}, 8}});
  d = policy.on_instant({}, view);
  CHECK(d.boot == nodes({1})); // no idle node is left on: the reserve is refilled
}

TEST_CASE("policies::power registry: none and idle_shutdown, with their parameters", "[policies][power]") {
  auto registries = policies::make_builtin_registries();
  CHECK(registries.powers.names() == std::vector<std::string>{"idle_shutdown", "none"});
  config::Node node = config::load_yaml_text("{name: idle_shutdown, idle_after: 1h, reserve: 4, boot_time: 2min}", "t");
  auto policy = registries.powers.create(config::PolicySpec{"idle_shutdown", node}, {});
  CHECK(policy->manages_nodes());
  CHECK(policy->boot_time_s() == 120.0);
  auto none = registries.powers.create(config::PolicySpec{"none", config::Node()}, {});
  CHECK_FALSE(none->manages_nodes());
  CHECK(test::error_of([&] {
          registries.powers.create(config::PolicySpec{"idle_shutdwn", config::load_yaml_text("idle_shutdwn", "t")}, {});
        })
            .find("unknown power policy \"idle_shutdwn\"; expected one of: idle_shutdown, none (did you mean "
                  "\"idle_shutdown\"?)") != std::string::npos);
  config::Node bad = config::load_yaml_text("{name: idle_shutdown, reserve: -1}", "t");
  CHECK(test::error_of([&] {
          registries.powers.create(config::PolicySpec{"idle_shutdown", bad}, {});
        }).find("reserve") != std::string::npos);
}
