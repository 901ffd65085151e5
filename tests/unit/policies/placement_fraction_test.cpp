#include <catch2/catch.hpp>

#include "policies/placement/first_fit.hpp"
#include "policies/placement/pack.hpp"
#include "sim/model/cluster_view.hpp"

using namespace acme;
using model::JobId;
using model::NodeId;
using model::NodeShare;

namespace {
// GCC 12 reports a -Wrestrict false positive inside std::string's assignment from a literal when
// inlined here (GCC bug 105329); silenced for this function only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wrestrict"
model::ClusterShape shape(std::uint32_t nodes, std::uint32_t gpus_per_node, std::vector<std::uint32_t> per_node = {}) {
  model::ClusterShape s;
  s.name = "t";
  s.nodes = nodes;
  s.gpus_per_node = gpus_per_node;
  s.gpus_of_node = std::move(per_node);
  return s;
}
#pragma GCC diagnostic pop
model::JobSpec whole(std::uint64_t id, std::uint32_t gpus) {
  model::JobSpec j;
  j.id = JobId{id};
  j.gpus = gpus;
  return j;
}
model::JobSpec fraction(std::uint64_t id, std::uint32_t milli) {
  model::JobSpec j = whole(id, 1);
  j.gpu_milli = milli;
  return j;
}
/// Starts `job` in `view` where `policy` places it; returns the placement.
model::Placement start(model::ClusterView& view, policies::PlacementPolicy& policy, model::JobSpec job) {
  policies::FreeResources free;
  free.begin_round(view);
  auto where = policy.place(job, free);
  REQUIRE(where.has_value());
  view.add_job(job);
  view.start_job(job.id, *where);
  return *where;
}
} // namespace

TEST_CASE("policies::placement: a fractional job prefers an already shared GPU, best fit",
          "[policies][placement][share]") {
  model::ClusterView view(shape(2, 8));
  policies::PackPlacement pack;
  auto first = start(view, pack, fraction(1, 500));
  REQUIRE(first == model::Placement{NodeShare{NodeId{0}, 0, 500, 0}});
  auto second = start(view, pack, fraction(2, 700)); // does not fit the first GPU: opens another
  REQUIRE(second.size() == 1);
  REQUIRE(second[0].node == NodeId{0});
  REQUIRE(second[0].gpu == 1);
  REQUIRE(view.free_gpus(NodeId{0}) == 6);
  // 250 fits both shared GPUs (500 and 700 used); best fit takes the one left with less room (GPU 1).
  auto third = start(view, pack, fraction(3, 250));
  REQUIRE(third == model::Placement{NodeShare{NodeId{0}, 0, 250, 1}});
  REQUIRE(view.shared_gpu_milli(NodeId{0}, 1) == 950);
  REQUIRE(view.free_gpus(NodeId{0}) == 6);
  SECTION("first fit takes the lowest shared GPU with room instead") {
    policies::FirstFitPlacement first_fit;
    auto fourth = start(view, first_fit, fraction(4, 50));
    REQUIRE(fourth == model::Placement{NodeShare{NodeId{0}, 0, 50, 0}});
  }
  SECTION("whole-GPU jobs avoid shared GPUs") {
    policies::FreeResources free;
    free.begin_round(view);
    // Node 0 has 6 GPUs nothing uses (two are shared): 7 GPUs only fit the idle node 1.
    REQUIRE(pack.place(whole(5, 7), free) == model::Placement{{NodeId{1}, 7}});
    REQUIRE(pack.place(whole(5, 6), free) == model::Placement{{NodeId{0}, 6}});
    REQUIRE(pack.place(whole(5, 8), free) == model::Placement{{NodeId{1}, 8}});
  }
}

TEST_CASE("policies::placement: promises within one round never over-fill a shared GPU",
          "[policies][placement][share]") {
  model::ClusterView view(shape(1, 2));
  policies::PackPlacement pack;
  policies::FreeResources free;
  free.begin_round(view);
  std::vector<model::Placement> placed;
  for (std::uint64_t id = 0; id < 5; ++id) {
    auto where = pack.place(fraction(id, 600), free);
    if (!where) {
      break;
    }
    free.take(*where);
    placed.push_back(*where);
  }
  // 600 milli each: one per GPU, two GPUs.
  REQUIRE(placed.size() == 2);
  REQUIRE(placed[0][0].gpu != placed[1][0].gpu);
  REQUIRE(free.free_gpus_total() == 0);
  REQUIRE(free.shared_gpu_milli(NodeId{0}, 0) == 600);
  // A small job still fits in the room the round left on a shared GPU.
  auto small = pack.place(fraction(9, 400), free);
  REQUIRE(small.has_value());
  REQUIRE(policies::may_fit_now(fraction(9, 400), free));
  REQUIRE_FALSE(policies::may_fit_now(whole(10, 1), free));
  REQUIRE(*small == model::Placement{NodeShare{NodeId{0}, 0, 400, 0}}); // tie on room: lowest GPU
  free.take(*small);
  REQUIRE(free.shared_gpu_milli(NodeId{0}, 0) == 1000);
  REQUIRE_FALSE(pack.place(fraction(11, 500), free).has_value()); // 400 left on GPU 1, no free GPU
  REQUIRE(pack.place(fraction(11, 400), free) == model::Placement{NodeShare{NodeId{0}, 0, 400, 1}});
  for (auto& where : placed) {
    REQUIRE(view.fits(where));
  }
}

TEST_CASE("policies::placement: gang jobs take whole heterogeneous nodes", "[policies][placement][hetero]") {
  // GPUs per node: 2, 0, 8, 4, 8.
  model::ClusterView view(shape(5, 8, {2, 0, 8, 4, 8}));
  policies::FreeResources free;
  free.begin_round(view);
  SECTION("pack takes the largest idle nodes first") {
    policies::PackPlacement pack;
    auto where = pack.place(whole(1, 12), free);
    REQUIRE(where == model::Placement{{NodeId{2}, 8}, {NodeId{4}, 8}});
  }
  SECTION("first fit takes idle nodes by index until they hold the job") {
    policies::FirstFitPlacement first_fit;
    auto where = first_fit.place(whole(1, 12), free);
    REQUIRE(where == model::Placement{{NodeId{0}, 2}, {NodeId{2}, 8}, {NodeId{3}, 4}});
  }
  SECTION("a job of up to one node goes on a node that has enough GPUs") {
    policies::PackPlacement pack;
    REQUIRE(pack.place(whole(1, 3), free) == model::Placement{{NodeId{3}, 3}});
    REQUIRE(pack.place(whole(1, 2), free) == model::Placement{{NodeId{0}, 2}});
  }
  SECTION("more than the idle nodes hold does not fit") {
    policies::PackPlacement pack;
    REQUIRE_FALSE(pack.place(whole(1, 23), free).has_value());
    REQUIRE(pack.place(whole(1, 22), free).has_value());
  }
}

TEST_CASE("policies::placement: identical nodes keep the whole-node gang of the first idle nodes",
          "[policies][placement]") {
  model::ClusterView view(shape(4, 8));
  view.add_job(whole(1, 1));
  view.start_job(JobId{1}, {{NodeId{1}, 1}});
  policies::FreeResources free;
  free.begin_round(view);
  policies::PackPlacement pack;
  policies::FirstFitPlacement first_fit;
  model::Placement expected{{NodeId{0}, 8}, {NodeId{2}, 8}};
  REQUIRE(pack.place(whole(2, 9), free) == expected);
  REQUIRE(first_fit.place(whole(2, 16), free) == expected);
  REQUIRE_FALSE(pack.place(whole(2, 25), free).has_value());
}
