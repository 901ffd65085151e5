#include <catch2/catch.hpp>

#include "sim/core/pod_launch.hpp"

using namespace acme;

namespace {
model::JobSpec job_of(std::uint32_t user, model::JobType type = model::JobType::PRETRAIN) {
  model::JobSpec s;
  s.user = model::UserId{user};
  s.type = type;
  s.gpus = 8;
  return s;
}
model::Placement on_nodes(std::initializer_list<std::uint32_t> nodes) {
  model::Placement p;
  for (std::uint32_t n : nodes) {
    p.push_back(model::NodeShare{model::NodeId{n}, 8});
  }
  return p;
}
} // namespace

TEST_CASE("core::pod_launch: pods wait for the binder, then for the image on nodes that lack it", "[core][pods]") {
  config::PodConfig c;
  SECTION("binding: pods one after another at bind_rate") {
    c.bind_rate_per_s = 10.0;
    core::PodLaunch pods(c, 4, 2, 1, "k");
    core::PodTimes a = pods.start(job_of(1), on_nodes({0, 1}), 100.0);
    CHECK(a.bound_s == Approx(100.2));
    core::PodTimes b = pods.start(job_of(2), {}, 100.0); // a CPU job: one pod, after the first job's two
    CHECK(b.bound_s == Approx(100.3));
    CHECK(b.pulled_s == b.bound_s);
    CHECK(pods.start(job_of(3), on_nodes({2}), 200.0).bound_s == Approx(200.1)); // the binder was idle
  }
  SECTION("pulls: size over min(node bandwidth, registry / pulling nodes); a node keeps its images") {
    c.image_bytes = 10e9;
    c.pull_bw_Bps = 1e9;
    c.registry_bw_Bps = 2e9;
    c.cache_images = 2;
    core::PodLaunch pods(c, 4, 2, 1, "k");
    CHECK(pods.start(job_of(1), on_nodes({0}), 0.0).pulled_s == Approx(10.0)); // 1 GB/s alone
    CHECK(pods.start(job_of(1), on_nodes({0, 1, 2, 3}), 50.0).pulled_s == Approx(50.0 + 10e9 / (2e9 / 3)));
    CHECK(pods.start(job_of(1), on_nodes({0, 1, 2, 3}), 100.0).pulled_s == 100.0); // every node has it now
    pods.start(job_of(2), on_nodes({0}), 200.0);
    pods.start(job_of(3), on_nodes({0}), 300.0); // node 0 keeps users 2 and 3: user 1's image is evicted
    CHECK(pods.start(job_of(1), on_nodes({0}), 400.0).pulled_s == Approx(410.0));
    CHECK(pods.start(job_of(3), on_nodes({0}), 500.0).pulled_s == 500.0);
  }
  SECTION("images: one per user and type variant; sizes drawn once per image from the seed") {
    c.image_bytes = 10e9;
    c.image_size_sigma = 1.0;
    c.pull_bw_Bps = 1e9;
    c.images_per_user = 2;
    c.cache_images = 8;
    core::PodLaunch pods(c, 4, 2, 7, "k");
    core::PodLaunch again(c, 4, 2, 7, "k");
    double first = pods.start(job_of(1, model::JobType::PRETRAIN), on_nodes({0}), 0.0).pulled_s;
    CHECK(again.start(job_of(1, model::JobType::PRETRAIN), on_nodes({0}), 0.0).pulled_s == first);
    CHECK(first != Approx(10.0)); // drawn around the median
    CHECK(pods.start(job_of(1, model::JobType::PRETRAIN), on_nodes({1}), 0.0).pulled_s == first); // same image
    CHECK(pods.start(job_of(1, model::JobType::SFT), on_nodes({0}), 0.0).pulled_s > 0.0);         // the other variant
    CHECK(pods.start(job_of(1, model::JobType::SFT), on_nodes({0}), 0.0).pulled_s == 0.0);
  }
  SECTION("a CPU job's pod pulls on a CPU-pool server, which keeps cpu_cache_images of its own") {
    c.image_bytes = 10e9;
    c.pull_bw_Bps = 1e9;
    c.cache_images = 2;
    c.cpu_cache_images = 1;
    core::PodLaunch pods(c, 4, 1, 1, "k"); // one CPU server: every CPU pod lands there
    CHECK(pods.start(job_of(1), {}, 0.0).pulled_s == Approx(10.0));
    CHECK(pods.start(job_of(1), {}, 20.0).pulled_s == 20.0);                    // the server holds it
    CHECK(pods.start(job_of(1), on_nodes({0}), 30.0).pulled_s == Approx(40.0)); // a GPU node does not
    CHECK(pods.start(job_of(2), {}, 50.0).pulled_s == Approx(60.0));            // evicts user 1's image
    CHECK(pods.start(job_of(1), {}, 70.0).pulled_s == Approx(80.0));            // pulled again
    CHECK(pods.start(job_of(1), on_nodes({0}), 90.0).pulled_s == 90.0);         // node 0 kept it
  }
  SECTION("off by default") {
    core::PodLaunch pods(c, 4, 2, 1, "k");
    CHECK_FALSE(pods.enabled());
    core::PodTimes t = pods.start(job_of(1), on_nodes({0}), 5.0);
    CHECK(t.bound_s == 5.0);
    CHECK(t.pulled_s == 5.0);
  }
}
