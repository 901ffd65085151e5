#include <catch2/catch.hpp>

#include <memory>

#include "sim/core/task_runner.hpp"
#include "tests/unit/core/core_fakes.hpp"

using namespace acme;
using test::FakeControl;
using test::FakeIo;
using test::FakeTimer;
using K = model::TaskStep::Kind;

namespace {

constexpr double H2D_BPS = 10e9;
constexpr double MODEL_BYTES = 14e9;

model::TaskStep step(K kind, double seconds, double bytes = 0.0) {
  model::TaskStep s;
  s.kind = kind;
  s.seconds = seconds;
  s.bytes = bytes;
  return s;
}

/// A node job of 8 GPUs (one per lane): load the model, copy it to the GPUs, then two lanes of GPU
/// work; the first lane spawns a metric job at its end.
model::JobSpec coordinator_job() {
  auto plan = std::make_shared<model::TaskPlan>();
  plan->prologue = {step(K::STORAGE_READ, 0.0, MODEL_BYTES), step(K::HOST_COPY, 0.0, MODEL_BYTES)};
  model::TaskStep spawn = step(K::SPAWN, 0.0);
  auto metric = std::make_shared<model::JobSpec>();
  metric->name = "metric";
  metric->cpus = 4;
  spawn.follow_up = metric;
  plan->lanes = {{step(K::GPU, 100.0), spawn}, {step(K::CPU, 20.0), step(K::GPU, 120.0)}};
  model::JobSpec spec;
  spec.id = model::JobId{5};
  spec.type = model::JobType::EVAL;
  spec.gpus = 8;
  spec.duration_s = 1.0;
  spec.eval_batch = 42;
  spec.plan = plan;
  return spec;
}

} // namespace

TEST_CASE("core::task_runner: prologue, parallel lanes, spawned follow-ups and the end with the last lane",
          "[core][plan]") {
  FakeTimer timer;
  FakeIo io;
  core::JobTable table = test::one_cluster(1);
  FakeControl control(table, timer);
  core::TaskRunner runner(timer, io, table, control, H2D_BPS);
  model::JobId id{5};
  core::JobRuntime& job = test::run_job(table, coordinator_job());
  job.checkpoint.work_s = 1.0;

  runner.begin(id, job);
  REQUIRE(job.stage == core::JobStage::PLAN);
  REQUIRE(io.started.size() == 1); // the model load
  CHECK(io.started.at(1).bytes == MODEL_BYTES);
  CHECK(io.started.at(1).direction == core::IoDirection::READ);
  timer.set_now(10.0);
  runner.on_transfer_done(id, job, io.done(1, 10.0));
  auto [copy_end_s, copy] = timer.last<core::StepEnded>();
  CHECK(copy.lane == core::PROLOGUE_LANE);
  CHECK(copy_end_s == Approx(10.0 + MODEL_BYTES / H2D_BPS));

  timer.pop();
  runner.on_step_end(id, job, core::PROLOGUE_LANE); // both lanes start
  REQUIRE(timer.count<core::StepEnded>() == 2);
  auto first = timer.pop();
  CHECK(std::get<core::StepEnded>(first.event).lane == 1); // lane 1's CPU step (20 s) ends first
  runner.on_step_end(id, job, 1);
  auto second = timer.pop();
  REQUIRE(std::get<core::StepEnded>(second.event).lane == 0);
  runner.on_step_end(id, job, 0); // lane 0's GPU step, then its spawn: lane 0 is done
  REQUIRE(runner.has_spawned());
  std::vector<model::JobSpec> spawned = runner.take_spawned();
  REQUIRE(spawned.size() == 1);
  CHECK(model::to_index(spawned[0].id) == std::uint64_t{1} << 62);
  CHECK(spawned[0].submit_time_s == second.time_s);
  CHECK(spawned[0].eval_batch == 42);
  CHECK_FALSE(runner.has_spawned());
  CHECK(control.calls.empty());

  timer.pop();
  runner.on_step_end(id, job, 1); // the last lane ends the job
  CHECK(control.calls == std::vector<std::string>{"finish 5 COMPLETED"});
  CHECK(table.jobs.empty());
}

TEST_CASE("core::task_runner: a cancelled read never resumes the plan", "[core][plan]") {
  FakeTimer timer;
  FakeIo io;
  core::JobTable table = test::one_cluster(1);
  FakeControl control(table, timer);
  core::TaskRunner runner(timer, io, table, control, H2D_BPS);
  model::JobId id{5};
  core::JobRuntime& job = test::run_job(table, coordinator_job());
  runner.begin(id, job);
  core::TransferDone done = io.done(1, 10.0); // it ended, and its job was preempted before it was handled
  runner.cancel_transfers(job);
  CHECK(io.cancelled == std::vector<core::TransferId>{1});
  runner.on_transfer_done(id, job, done);
  CHECK(timer.scheduled.empty());
  CHECK(job.plan.lane_step.back() == 0);
}

TEST_CASE("core::task_runner: GPU busy time counts each lane's GPUs", "[core][plan]") {
  FakeTimer timer;
  FakeIo io;
  core::JobTable table = test::one_cluster(1);
  FakeControl control(table, timer);
  core::TaskRunner runner(timer, io, table, control, H2D_BPS);
  model::JobSpec spec = coordinator_job();
  auto plan = std::make_shared<model::TaskPlan>(*spec.plan);
  plan->prologue.clear();
  plan->gpus_per_lane = 4;
  spec.plan = plan;
  core::JobRuntime& job = test::run_job(table, spec);
  runner.begin(spec.id, job);                      // no prologue: both lanes start at once
  CHECK(job.accounting.gpu_busy_s == 4.0 * 100.0); // lane 0's GPU step counts when it starts
  timer.pop();                                     // lane 1's CPU step
  runner.on_step_end(spec.id, job, 1);
  CHECK(job.accounting.gpu_busy_s == 4.0 * (100.0 + 120.0)); // a CPU step is no GPU work
}
