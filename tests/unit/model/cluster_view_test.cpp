#include <catch2/catch.hpp>

#include "sim/model/cluster_view.hpp"

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

namespace {
ClusterShape mixed_nodes() {
  ClusterShape s;
  s.name = "mixed";
  s.nodes = 3;
  s.gpus_per_node = 8;
  s.gpus_of_node = {2, 0, 8};
  return s;
}
JobSpec fraction(std::uint64_t id, std::uint32_t milli) {
  JobSpec j = job(id, 1);
  j.gpu_milli = milli;
  return j;
}
NodeShare share(std::uint32_t node, std::uint32_t gpu, std::uint32_t milli) {
  return NodeShare{NodeId{node}, 0, milli, gpu};
}
} // namespace

TEST_CASE("model::cluster_view: heterogeneous nodes count their own GPUs", "[model][cluster_view]") {
  ClusterView view(mixed_nodes());
  REQUIRE(view.total_gpus() == 10);
  REQUIRE(view.free_gpus_total() == 10);
  REQUIRE(view.gpus_of(NodeId{0}) == 2);
  REQUIRE(view.free_gpus(NodeId{1}) == 0);
  REQUIRE(view.nodes_with_free_gpus(2).test(0));
  REQUIRE(view.nodes_with_free_gpus(0).test(1));
  // Idle: every GPU of its own free; a node without GPUs is never idle.
  REQUIRE(view.idle_node_set().count() == 2);
  REQUIRE(view.idle_node_set().test(0));
  REQUIRE_FALSE(view.idle_node_set().test(1));
  view.add_job(job(1, 2));
  view.start_job(JobId{1}, {{NodeId{0}, 2}});
  REQUIRE_FALSE(view.idle_node_set().test(0));
  REQUIRE(view.busy_gpus() == 2);
  SECTION("a node never gets back more GPUs than it has") {
    view.add_job(job(2, 3));
    REQUIRE_FALSE(view.fits({{NodeId{0}, 1}}));
    REQUIRE_THROWS(view.start_job(JobId{2}, {{NodeId{0}, 3}}));
  }
  SECTION("a down node is not idle, and idle again when up") {
    view.set_node_up(NodeId{2}, false);
    REQUIRE(view.idle_node_set().empty());
    view.set_node_up(NodeId{2}, true);
    REQUIRE(view.idle_node_set().test(2));
  }
}

TEST_CASE("model::cluster_view: fractional jobs share one GPU up to 1000 milli", "[model][cluster_view][share]") {
  ClusterView view(two_nodes());
  view.add_job(fraction(1, 600));
  view.add_job(fraction(2, 400));
  view.add_job(fraction(3, 100));
  view.start_job(JobId{1}, {share(0, 0, 600)});
  // Opening a shared GPU takes one free GPU: it is no longer free for whole-GPU jobs.
  REQUIRE(view.free_gpus(NodeId{0}) == 7);
  REQUIRE(view.free_gpus_total() == 15);
  REQUIRE(view.busy_gpus() == 1);
  REQUIRE(view.allocated_gpu_milli() == 600);
  REQUIRE(view.allocated_gpus() == Approx(0.6));
  REQUIRE(view.shared_gpu_milli(NodeId{0}, 0) == 600);
  REQUIRE(view.shared_gpus(NodeId{0}) == 1);
  REQUIRE(view.nodes_with_shared_gpus().test(0));
  REQUIRE_FALSE(view.idle_node_set().test(0));

  view.start_job(JobId{2}, {share(0, 0, 400)});
  REQUIRE(view.shared_gpu_milli(NodeId{0}, 0) == 1000);
  REQUIRE(view.free_gpus(NodeId{0}) == 7); // the second share uses the same GPU
  REQUIRE(view.busy_gpus() == 1);
  REQUIRE(view.allocated_gpu_milli() == 1000);

  SECTION("a full shared GPU refuses more") {
    REQUIRE_FALSE(view.fits({share(0, 0, 100)}));
    REQUIRE_THROWS(view.start_job(JobId{3}, {share(0, 0, 100)}));
    REQUIRE(view.fits({share(0, 1, 100)}));
  }
  SECTION("whole-GPU jobs only take free GPUs") {
    view.add_job(job(4, 8));
    REQUIRE_FALSE(view.fits({{NodeId{0}, 8}}));
    REQUIRE(view.fits({{NodeId{0}, 7}}));
  }
  SECTION("the GPU is free again when its last share ends; GPU-seconds count the shares") {
    view.set_now(10.0);
    REQUIRE(view.busy_gpu_seconds() == Approx(10.0)); // 0.6 + 0.4 GPUs for 10 s
    view.stop_job(JobId{1});
    REQUIRE(view.job(JobId{1}).attained_gpu_s == Approx(6.0));
    REQUIRE(view.free_gpus(NodeId{0}) == 7);
    REQUIRE(view.shared_gpu_milli(NodeId{0}, 0) == 400);
    view.set_now(20.0);
    REQUIRE(view.busy_gpu_seconds() == Approx(14.0));
    view.stop_job(JobId{2});
    REQUIRE(view.free_gpus(NodeId{0}) == 8);
    REQUIRE(view.busy_gpus() == 0);
    REQUIRE(view.allocated_gpu_milli() == 0);
    REQUIRE(view.shared_gpus(NodeId{0}) == 0);
    REQUIRE(view.nodes_with_shared_gpus().empty());
    REQUIRE(view.idle_node_set().test(0));
  }
  SECTION("a shared GPU needs a free GPU to open") {
    view.add_job(job(5, 7));
    view.start_job(JobId{5}, {{NodeId{0}, 7}});
    REQUIRE(view.free_gpus(NodeId{0}) == 0);
    REQUIRE_FALSE(view.fits({share(0, 1, 100)}));
    REQUIRE(view.free_gpus_total() + view.busy_gpus() == view.total_gpus());
  }
  SECTION("shares of a down node cannot be used") {
    view.set_node_up(NodeId{0}, false);
    REQUIRE(view.nodes_with_shared_gpus().empty());
    REQUIRE_FALSE(view.fits({share(0, 1, 100)}));
    view.set_node_up(NodeId{0}, true);
    REQUIRE(view.nodes_with_shared_gpus().test(0));
  }
  SECTION("whole-GPU jobs never take shares") {
    view.add_job(job(6, 1));
    REQUIRE_THROWS(view.start_job(JobId{6}, {share(1, 0, 500)}));
  }
}

TEST_CASE("model::cluster_view: node time out of service is integrated per reason", "[model][cluster_view]") {
  // Node 0: repair 0-30 s, its switch also down 10-30 s; node 1: a spare 10-40 s. At 40 s: repair 30,
  // switch 20, spare 30 node-seconds; 60 out for any reason; 30 for a failure of its own or its switch.
  ClusterView view(two_nodes());
  view.set_out_of_service(NodeId{0}, OutOfService::REPAIR);
  view.set_now(10.0);
  view.set_out_of_service(NodeId{0}, OutOfService::REPAIR | OutOfService::SWITCH);
  view.set_out_of_service(NodeId{1}, OutOfService::SPARE);
  view.set_now(30.0);
  view.set_out_of_service(NodeId{0}, 0);
  view.set_now(40.0);
  OutOfServiceTime t = view.out_of_service_time();
  CHECK(t.by_reason_node_s[0] == 30.0); // REPAIR
  CHECK(t.by_reason_node_s[3] == 20.0); // SWITCH
  CHECK(t.by_reason_node_s[4] == 30.0); // SPARE
  CHECK(t.by_reason_node_s[1] == 0.0);
  CHECK(t.any_node_s == 60.0);
  CHECK(t.failed_node_s == 30.0);
  view.set_out_of_service(NodeId{1}, OutOfService::SPARE); // no change: nothing moves
  CHECK(view.out_of_service_time().any_node_s == 60.0);
}
