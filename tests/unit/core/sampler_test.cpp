#include <catch2/catch.hpp>

#include <vector>

#include "sim/core/sampler.hpp"

using namespace acme;

namespace {
model::ClusterShape two_nodes() {
  model::ClusterShape shape;
  shape.name = "test";
  shape.nodes = 2;
  shape.gpus_per_node = 8;
  return shape;
}
model::JobSpec gpu_job(std::uint64_t id, std::uint32_t gpus) {
  model::JobSpec spec;
  spec.id = model::JobId{id};
  spec.gpus = gpus;
  spec.duration_s = 1000.0;
  return spec;
}
} // namespace

TEST_CASE("core::sampler: interval averages, boundaries and the last partial interval", "[core][sampler]") {
  model::ClusterView view(two_nodes());
  std::vector<metrics::ClusterSample> out;
  core::Sampler sampler(100.0, {&view}, [&](const metrics::ClusterSample& s) { out.push_back(s); });
  view.add_job(gpu_job(1, 8));
  view.start_job(model::JobId{1}, {model::NodeShare{model::NodeId{0}, 8, 0, 0}});

  // At 150 s: the interval ending at 100 s is over; the job held 8 GPUs through it.
  view.set_now(150.0);
  sampler.sample_until(150.0, false);
  REQUIRE(out.size() == 1);
  CHECK(out[0].time_s == 100.0);
  CHECK(out[0].busy_gpus_avg == Approx(8.0));
  CHECK(out[0].running_jobs == 1);
  CHECK(out[0].up_nodes == 2);

  // The job stops at 150 s and waits in the queue: the interval 100..200 averages 4 GPUs.
  view.stop_job(model::JobId{1});
  view.set_now(200.0);
  sampler.sample_until(200.0, false); // a sample time equal to the instant waits for the instant to end
  REQUIRE(out.size() == 1);
  view.set_now(250.0);
  sampler.sample_until(250.0, false);
  REQUIRE(out.size() == 2);
  CHECK(out[1].time_s == 200.0);
  CHECK(out[1].busy_gpus_avg == Approx(4.0));
  CHECK(out[1].queued_jobs == 1);
  CHECK(out[1].queued_gpus == 8);

  // The end of the run at 250 s: the partial interval 200..250.
  sampler.sample_until(250.0, true);
  REQUIRE(out.size() == 3);
  CHECK(out[2].time_s == 250.0);
  CHECK(out[2].busy_gpus_avg == Approx(0.0));
}

TEST_CASE("core::sampler: a run ending on a sample time emits it once, with no partial interval", "[core][sampler]") {
  model::ClusterView view(two_nodes());
  std::vector<double> times;
  core::Sampler sampler(60.0, {&view}, [&](const metrics::ClusterSample& s) { times.push_back(s.time_s); });
  view.set_now(120.0);
  sampler.sample_until(120.0, true);
  REQUIRE(times == std::vector<double>{60.0, 120.0});
}

TEST_CASE("core::sampler: a time series past its bound stops the run at the interval's key", "[core][sampler]") {
  model::ClusterView view(two_nodes());
  std::uint64_t rows = 0;
  core::Sampler sampler(
      1.0, {&view}, [&](const metrics::ClusterSample&) { ++rows; }, core::Sampler::Probe{}, nullptr,
      Location{"c.yaml", 9, 30});
  // A clock far ahead (a year-long job sampled every second) reaches the bound, not the end of memory.
  view.set_now(1e8);
  REQUIRE_THROWS_WITH(sampler.sample_until(1e8, false),
                      Catch::Contains("c.yaml:9:30: output.timeseries_interval: timeseries.csv passed 2000000 rows"));
  REQUIRE(rows == 2000000);
}
