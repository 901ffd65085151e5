#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include "policies/scheduling/availability_profile.hpp"
#include "sim/model/rng.hpp"
#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;

namespace {
constexpr std::uint32_t NODES = 6;
constexpr std::uint32_t GPUS_PER_NODE = 8;
constexpr double NOW_S = 100.0;

/// A cluster with random running jobs (single-node shares and one two-node job), each known to
/// `running` with an estimated end after NOW_S.
struct Scenario {
  model::ClusterView view{test::make_shape(NODES, GPUS_PER_NODE)};
  policies::RunningJobs running;
  policies::FreeResources free;

  explicit Scenario(model::Rng& rng) {
    view.set_now(NOW_S);
    std::uint64_t id = 1;
    auto run = [&](model::Placement placement, std::uint32_t gpus) {
      model::JobSpec spec = test::make_job(id++, gpus, 0, 1000);
      view.add_job(spec);
      view.start_job(spec.id, placement);
      running.add(
          {spec.id, spec.type, spec.user, gpus, 0, 0.0, 0.0, NOW_S + std::floor(rng.uniform(1.0, 400.0)), placement});
    };
    run({{model::NodeId{0}, GPUS_PER_NODE}, {model::NodeId{1}, GPUS_PER_NODE}}, 2 * GPUS_PER_NODE);
    for (std::uint32_t n = 2; n < NODES; ++n) {
      auto gpus = static_cast<std::uint32_t>(rng.below(GPUS_PER_NODE));
      if (gpus > 0) {
        run({{model::NodeId{n}, gpus}}, gpus);
      }
    }
    free.begin_round(view);
  }
};

/// Reserved GPUs of every node at instant t, counting the running jobs until their estimated ends.
std::uint32_t use_at(const Scenario& s, const std::vector<std::pair<policies::AvailabilityProfile::Slot, double>>& plan,
                     std::uint32_t node, double t_s) {
  std::uint32_t use = 0;
  for (const auto& share : s.running.on_node(model::NodeId{node})) {
    use += t_s < s.running.find(share.job)->est_end_s ? share.gpus : 0;
  }
  for (const auto& [slot, duration_s] : plan) {
    for (const auto& share : slot.placement) {
      if (model::to_index(share.node) == node && slot.start_s <= t_s && t_s < slot.start_s + duration_s) {
        use += share.gpus;
      }
    }
  }
  return use;
}

/// The earliest start the plan leaves for `gpus` GPUs over `duration_s`, by brute force: starts tried
/// where GPUs come back, use checked wherever it may rise. Up to a node's size on one node, beyond it
/// on whole idle nodes.
double brute_earliest(const Scenario& s,
                      const std::vector<std::pair<policies::AvailabilityProfile::Slot, double>>& plan,
                      std::uint32_t gpus, double duration_s) {
  std::vector<double> times{NOW_S};
  for (const auto& [id, job] : s.running.all()) {
    times.push_back(std::max(NOW_S, job.est_end_s));
  }
  for (const auto& [slot, d] : plan) {
    times.push_back(slot.start_s);
    times.push_back(slot.start_s + d);
  }
  std::sort(times.begin(), times.end());
  auto room_through = [&](std::uint32_t n, double t_s) { // GPUs free on node n all over [t_s, t_s + duration_s)
    std::uint32_t peak = use_at(s, plan, n, t_s);
    for (double c : times) {
      if (c > t_s && c < t_s + duration_s) {
        peak = std::max(peak, use_at(s, plan, n, c));
      }
    }
    return GPUS_PER_NODE - std::min(peak, GPUS_PER_NODE);
  };
  for (double t_s : times) {
    std::uint32_t held = 0;
    for (std::uint32_t n = 0; n < NODES; ++n) {
      std::uint32_t room = room_through(n, t_s);
      if (gpus <= GPUS_PER_NODE ? room >= gpus : room == GPUS_PER_NODE) {
        held += gpus <= GPUS_PER_NODE ? gpus : GPUS_PER_NODE;
      }
    }
    if (held >= gpus) {
      return t_s;
    }
  }
  return std::numeric_limits<double>::infinity();
}
} // namespace

TEST_CASE("policies::availability_profile: plans extended one reservation at a time answer as plans rebuilt whole",
          "[policies][conservative_backfill][property]") {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    INFO("seed " << seed);
    model::Rng rng(seed, "test/profile");
    Scenario s(rng);
    policies::AvailabilityProfile extended;
    policies::AvailabilityProfile rebuilt;
    extended.begin(s.free, s.running, NOW_S);
    rebuilt.begin(s.free, s.running, NOW_S);
    std::vector<std::pair<policies::AvailabilityProfile::Slot, double>> plan;
    for (std::uint64_t i = 0; i < 60; ++i) {
      INFO("query " << i);
      std::uint32_t gpus = rng.bernoulli(0.25) ? GPUS_PER_NODE * static_cast<std::uint32_t>(2 + rng.below(3))
                                               : static_cast<std::uint32_t>(1 + rng.below(GPUS_PER_NODE));
      double duration_s = std::floor(rng.uniform(1.0, 300.0));
      model::JobSpec job = test::make_job(100 + i, gpus, 0, duration_s);
      rebuilt.advance(s.free, NOW_S); // drops every node's plan: the next query builds them from scratch
      auto a = extended.earliest(job, duration_s);
      auto b = rebuilt.earliest(job, duration_s);
      REQUIRE(a.has_value() == b.has_value());
      if (!a) {
        REQUIRE(brute_earliest(s, plan, gpus, duration_s) == std::numeric_limits<double>::infinity());
        continue;
      }
      REQUIRE(a->start_s == b->start_s);
      REQUIRE(a->start_s == brute_earliest(s, plan, gpus, duration_s));
      REQUIRE(a->placement == b->placement);
      model::Placement now_on{{model::NodeId{static_cast<std::uint32_t>(rng.below(NODES))}, 1}};
      REQUIRE(extended.fits_now(now_on, duration_s) == rebuilt.fits_now(now_on, duration_s));
      extended.reserve(*a, duration_s);
      rebuilt.reserve(*b, duration_s);
      plan.emplace_back(*a, duration_s);
    }
    // No node is ever planned beyond its GPUs: check at every instant where the use can rise.
    for (const auto& [slot, duration_s] : plan) {
      for (std::uint32_t n = 0; n < NODES; ++n) {
        REQUIRE(use_at(s, plan, n, slot.start_s) <= GPUS_PER_NODE);
      }
    }
  }
}
