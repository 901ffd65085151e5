#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "policies/placement/random.hpp"
#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;

namespace {
/// Places and starts `count` jobs of mixed sizes; returns the placements.
std::vector<model::Placement> play(std::uint64_t seed, const std::string& cluster, int count) {
  model::ClusterView view(test::make_shape(8, 8));
  policies::RandomPlacement random(seed, cluster);
  std::vector<model::Placement> out;
  for (int i = 0; i < count; ++i) {
    std::uint32_t gpus = i % 5 == 4 ? 16 : 1 + i % 3;
    policies::FreeResources free;
    free.begin_round(view);
    auto job = test::make_job(i, gpus, 0, 1);
    auto p = random.place(job, free);
    if (!p) {
      out.emplace_back();
      continue;
    }
    REQUIRE(view.fits(*p));
    std::set<model::NodeId> nodes;
    for (const auto& share : *p) {
      nodes.insert(share.node);
    }
    REQUIRE(nodes.size() == p->size());
    view.add_job(job);
    view.start_job(job.id, *p);
    out.push_back(*p);
  }
  return out;
}
} // namespace

TEST_CASE("policies::random: deterministic for a seed and cluster, different across seeds", "[policies][random]") {
  auto a = play(7, "seren", 20);
  REQUIRE(std::count(a.begin(), a.end(), model::Placement{}) < 5);
  REQUIRE(play(7, "seren", 20) == a);
  REQUIRE(play(8, "seren", 20) != a);
  REQUIRE(play(7, "kalos", 20) != a);
}

TEST_CASE("policies::random: through the registry it draws from the run seed", "[policies][random]") {
  auto placement = test::make_placement("random");
  model::ClusterView view(test::make_shape(8, 8));
  policies::FreeResources free;
  free.begin_round(view);
  auto p = placement->place(test::make_job(1, 1, 0, 1), free);
  policies::RandomPlacement same(42, "test");
  REQUIRE(same.place(test::make_job(1, 1, 0, 1), free) == p);
}
