#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "policies/placement/first_fit.hpp"
#include "policies/placement/topology.hpp"
#include "sim/model/rng.hpp"
#include "tests/unit/policies/policy_driver.hpp"

using namespace acme;
using model::NodeId;

namespace {
/// Runs a job of `gpus` on `node` directly in the view.
void occupy(model::ClusterView& view, std::uint64_t id, std::uint32_t node, std::uint32_t gpus) {
  view.add_job(test::make_job(id, gpus, 0, 1));
  view.start_job(model::JobId{id}, {model::NodeShare{NodeId{node}, gpus}});
}
std::size_t leaves_spanned(const model::ClusterView& view, const model::Placement& p) {
  std::set<std::uint32_t> leaves;
  for (const auto& share : p) {
    leaves.insert(view.leaf_of(share.node));
  }
  return leaves.size();
}
std::optional<model::Placement> place(policies::PlacementPolicy& policy, const model::ClusterView& view,
                                      std::uint32_t gpus) {
  policies::FreeResources free;
  free.begin_round(view);
  return policy.place(test::make_job(999, gpus, 0, 1), free);
}
} // namespace

TEST_CASE("policies::topology: a gang job spans the fewest leaves, best fit", "[policies][topology]") {
  // 4 leaves of 4 nodes; idle nodes per leaf: 3, 4, 2, 1.
  model::ClusterView view(test::make_shape(16, 8, 4));
  std::uint64_t id = 1;
  for (std::uint32_t busy : {0U, 8U, 9U, 12U, 13U, 14U}) {
    occupy(view, id++, busy, busy == 0 ? 1 : 8);
  }
  policies::TopologyPlacement topology;
  policies::FirstFitPlacement first;
  SECTION("two nodes fit the leaf with exactly two idle nodes") {
    auto p = place(topology, view, 16);
    REQUIRE(p == model::Placement{{NodeId{10}, 8}, {NodeId{11}, 8}});
  }
  SECTION("four nodes: one leaf, where first fit takes two") {
    auto p = place(topology, view, 32);
    REQUIRE(p.has_value());
    REQUIRE(leaves_spanned(view, *p) == 1);
    REQUIRE(leaves_spanned(view, *place(first, view, 32)) == 2);
  }
  SECTION("five nodes: the largest leaf and the best-fitting rest") {
    auto p = place(topology, view, 40);
    REQUIRE(p == model::Placement{{NodeId{4}, 8}, {NodeId{5}, 8}, {NodeId{6}, 8}, {NodeId{7}, 8}, {NodeId{15}, 8}});
  }
  SECTION("more than the idle nodes: no placement") {
    REQUIRE_FALSE(place(topology, view, 11 * 8).has_value());
  }
  SECTION("a single-node job goes best fit, under the leaf with fewer idle nodes") {
    occupy(view, id++, 10, 1); // node 10 (leaf 2, now 1 idle node) and node 0 (leaf 0, 3 idle) have 7 free
    REQUIRE(place(topology, view, 1) == model::Placement{{NodeId{10}, 1}});
    REQUIRE(place(topology, view, 8) == model::Placement{{NodeId{11}, 8}}); // leaf 2's last idle node
  }
}

TEST_CASE("policies::topology: gang placements are minimal in leaves on random occupancy", "[policies][topology]") {
  policies::TopologyPlacement topology;
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    model::ClusterView view(test::make_shape(24, 8, 4)); // 6 leaves
    model::Rng rng(seed, "test/occupancy");
    for (std::uint32_t n = 0; n < 24; ++n) {
      if (rng.bernoulli(0.4)) {
        occupy(view, n + 1, n, 1 + static_cast<std::uint32_t>(rng.below(8)));
      }
    }
    std::vector<std::uint32_t> idle_per_leaf(6, 0);
    for (std::uint32_t n = 0; n < 24; ++n) {
      idle_per_leaf[n / 4] += view.free_gpus(NodeId{n}) == 8 ? 1 : 0;
    }
    std::sort(idle_per_leaf.rbegin(), idle_per_leaf.rend());
    for (std::uint32_t nodes = 2; nodes <= 12; ++nodes) {
      INFO("seed " << seed << ", " << nodes << " nodes");
      auto p = place(topology, view, nodes * 8);
      std::uint32_t total = 0;
      std::size_t minimum = 0;
      for (std::uint32_t idle : idle_per_leaf) {
        if (total >= nodes) {
          break;
        }
        total += idle;
        ++minimum;
      }
      if (total < nodes) {
        REQUIRE_FALSE(p.has_value());
        continue;
      }
      REQUIRE(p.has_value());
      REQUIRE(p->size() == nodes);
      REQUIRE(view.fits(*p));
      REQUIRE(leaves_spanned(view, *p) == minimum);
    }
  }
}
