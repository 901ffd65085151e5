#include "acme/model/cluster_view.hpp"

#include <catch2/catch.hpp>

using namespace acme::model;

namespace {
ClusterShape two_nodes() {
  ClusterShape s;
  s.name = "t";
  s.nodes = 2;
  s.gpus_per_node = 8;
  s.cpu_pool_cores = 10;
  return s;
}
JobSpec job(std::uint64_t id, std::uint32_t gpus, std::uint32_t cpus = 0) {
  JobSpec j;
  j.id = JobId{id};
  j.gpus = gpus;
  j.cpus = cpus;
  return j;
}
} // namespace

TEST_CASE("model::cluster_view: allocation keeps buckets and counters consistent", "[model][cluster_view]") {
  ClusterView view(two_nodes());
  REQUIRE(view.free_gpus_total() == 16);
  REQUIRE(view.nodes_with_free_gpus(8).count() == 2);
  view.add_job(job(1, 3));
  REQUIRE(view.queued_jobs() == 1);
  REQUIRE(view.queued_gpus() == 3);
  view.start_job(JobId{1}, {{NodeId{1}, 3}});
  REQUIRE(view.free_gpus(NodeId{1}) == 5);
  REQUIRE(view.nodes_with_free_gpus(5).test(1));
  REQUIRE(view.nodes_with_free_gpus(8).count() == 1);
  REQUIRE(view.busy_gpus() == 3);
  REQUIRE(view.queued_jobs() == 0);
  REQUIRE(view.running_jobs() == 1);

  SECTION("over-allocation is refused") {
    view.add_job(job(2, 6));
    REQUIRE_FALSE(view.fits({{NodeId{1}, 6}}));
    REQUIRE_THROWS(view.start_job(JobId{2}, {{NodeId{1}, 6}}));
  }
  SECTION("a down node leaves the buckets and the free total") {
    view.set_node_up(NodeId{0}, false);
    REQUIRE(view.free_gpus_total() == 5);
    REQUIRE(view.nodes_with_free_gpus(8).empty());
    view.set_node_up(NodeId{0}, true);
    REQUIRE(view.free_gpus_total() == 13);
  }
  SECTION("stopping returns GPUs and requeues; busy GPU-seconds integrate over time") {
    view.set_now(10.0);
    view.stop_job(JobId{1});
    REQUIRE(view.busy_gpu_seconds() == Approx(30.0));
    REQUIRE(view.job(JobId{1}).attained_gpu_s == Approx(30.0));
    REQUIRE(view.free_gpus_total() == 16);
    REQUIRE(view.queued_jobs() == 1);
    view.remove_job(JobId{1});
    REQUIRE(view.jobs().empty());
  }
  SECTION("time never goes backwards") {
    view.set_now(5.0);
    REQUIRE_THROWS(view.set_now(4.0));
  }
}

TEST_CASE("model::cluster_view: CPU jobs draw on the CPU pool", "[model][cluster_view]") {
  ClusterView view(two_nodes());
  view.add_job(job(1, 0, 6));
  view.start_job(JobId{1}, {});
  REQUIRE(view.free_cpu_cores() == 4);
  view.add_job(job(2, 0, 6));
  REQUIRE_THROWS(view.start_job(JobId{2}, {}));
}
