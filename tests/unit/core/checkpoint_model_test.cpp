#include <catch2/catch.hpp>

#include "sim/core/checkpoint_model.hpp"
#include "tests/unit/core/core_fakes.hpp"

using namespace acme;
using test::FakeControl;
using test::FakeIo;
using test::FakeTimer;

namespace {

constexpr double INTERVAL_S = 1000.0;
constexpr double BYTES = 14e9; // 1e9 parameters, 14 bytes each
constexpr double D2H_BPS = 12.5e9;
constexpr double H2D_BPS = 10e9;
constexpr double SLOWDOWN = 0.1;

/// 1000 s of computation plus the last measured restart cost R (so that a restart changes it).
class ThousandSecondsPlusR final : public policies::CheckpointPolicy {
public:
  double interval_s(const policies::CheckpointSituation& s) const override { return INTERVAL_S + s.restart_cost_s; }
};

/// A checkpoint model over fakes, with one 8-GPU pretraining job (id 1) running on node 0.
struct Bench {
  explicit Bench(bool async) {
    faults.checkpoint.async = async;
    faults.checkpoint.host_snapshots = 1;
    model.admit(job(), spec);
  }
  core::JobRuntime& job() { return table.jobs.at(id); }
  /// The time and stage generation of the last scheduled event of type E.
  template <class E>
  std::pair<double, std::uint32_t> last() const {
    auto [t, e] = timer.last<E>();
    return {t, e.generation};
  }

  model::JobId id{1};
  config::FaultConfig faults;
  ThousandSecondsPlusR policy;
  FakeTimer timer;
  FakeIo io;
  core::JobTable table = test::one_cluster(2);
  FakeControl control{table, timer};
  model::ClusterRngs rng{1, "test", {"c"}};
  model::JobSpec spec = test::pretrain_job(1, 1, 3500.0);
  core::JobRuntime& running = test::run_job(table, spec);
  core::CheckpointModel model{faults, policy, {D2H_BPS, H2D_BPS, SLOWDOWN}, timer, io, table, control, rng};
};

} // namespace

TEST_CASE("core::checkpoint_model: sync checkpoints, a failure rolls back to the last one, restore and finish",
          "[core][checkpoint]") {
  Bench b(false);
  core::JobRuntime& job = b.job();
  REQUIRE(job.checkpoint.enabled);
  REQUIRE(job.checkpoint.bytes == BYTES);
  b.model.resume(b.id, job); // nothing to restore: computes up to the first checkpoint
  REQUIRE(job.stage == core::JobStage::COMPUTING);
  REQUIRE(b.last<core::SegmentEnded>() == std::pair{INTERVAL_S, job.generation});

  b.timer.set_now(1000.0);
  b.model.on_segment_end(b.id, job);
  REQUIRE(job.stage == core::JobStage::CHECKPOINTING);
  const core::TransferRequest& write = b.io.started.at(1);
  CHECK(write.direction == core::IoDirection::WRITE);
  CHECK(write.bytes == BYTES);
  CHECK(write.owner == b.id);

  b.timer.set_now(1050.0);
  b.model.on_transfer_done(b.id, job, b.io.done(1, 50.0));
  CHECK(job.checkpoint.persisted_s == 1000.0);
  CHECK(job.checkpoint.cost_s == 50.0); // C as measured
  CHECK(job.accounting.checkpoints == 1);
  CHECK(job.accounting.stall_s == 50.0);
  auto [segment_end_s, generation] = b.last<core::SegmentEnded>();
  CHECK(segment_end_s == 2050.0);

  // A failure 500 s into the second segment: back to the checkpoint at 1000 s.
  b.timer.set_now(1550.0);
  job.failed_at_s = 1550.0;
  b.model.stop_progress(job);
  CHECK(job.checkpoint.progress_s == 1500.0);
  b.model.cancel_transfers(job);
  b.model.roll_back(job, 8.0);
  job.enter(core::JobStage::WAITING, 1550.0); // the lifecycle releases it
  CHECK(job.checkpoint.progress_s == 1000.0);
  CHECK(job.accounting.lost_work_s == 500.0);
  CHECK(job.accounting.lost_gpu_s == 4000.0);
  CHECK(job.checkpoint.needs_restore);
  CHECK(generation != job.generation); // the segment's end is stale

  // Restarted at 2000 s: read back (40 s), then every GPU copies its shard to the device.
  b.timer.set_now(2000.0);
  b.model.resume(b.id, job);
  REQUIRE(job.stage == core::JobStage::RESTORING);
  CHECK(b.io.started.at(2).direction == core::IoDirection::READ);
  b.timer.set_now(2040.0);
  b.model.on_transfer_done(b.id, job, b.io.done(2, 40.0));
  double h2d_s = BYTES / 8 / H2D_BPS;
  REQUIRE(b.last<core::StallEnded>().first == Approx(2040.0 + h2d_s));
  b.timer.set_now(2040.0 + h2d_s);
  b.model.on_stall_end(b.id, job);
  CHECK(job.accounting.restore_s == Approx(40.0 + h2d_s));
  CHECK(job.checkpoint.restart_cost_s == Approx(40.0 + h2d_s));                         // R as measured
  CHECK(job.accounting.lost_gpu_s == Approx(4000.0 + 8.0 * (2040.0 + h2d_s - 1550.0))); // + the downtime
  REQUIRE(job.stage == core::JobStage::COMPUTING);
  // The next checkpoint counts from the restored state, with the interval the measured R gives.
  CHECK(b.last<core::SegmentEnded>().first == Approx(2040.0 + h2d_s + INTERVAL_S + (40.0 + h2d_s)));
  CHECK(b.control.calls.empty());
}

TEST_CASE("core::checkpoint_model: the job finishes when its work is done", "[core][checkpoint]") {
  Bench b(false);
  b.job().checkpoint.work_s = 600.0;
  b.model.resume(b.id, b.job());
  REQUIRE(b.last<core::SegmentEnded>().first == 600.0); // the work ends before the first checkpoint
  b.timer.set_now(600.0);
  b.model.on_segment_end(b.id, b.job());
  REQUIRE(b.control.calls == std::vector<std::string>{"finish 1 COMPLETED"});
  REQUIRE(b.table.jobs.empty());
  REQUIRE(b.io.started.empty());
}

TEST_CASE("core::checkpoint_model: async snapshots persist in the background; only a finished persist counts",
          "[core][checkpoint]") {
  Bench b(true);
  core::JobRuntime& job = b.job();
  b.model.resume(b.id, job);
  b.timer.set_now(1000.0);
  b.model.on_segment_end(b.id, job);
  REQUIRE(job.stage == core::JobStage::SNAPSHOTTING);
  double snapshot_s = BYTES / 8 / D2H_BPS; // every GPU copies its shard to host memory
  REQUIRE(b.last<core::StallEnded>().first == Approx(1000.0 + snapshot_s));
  b.timer.set_now(1000.0 + snapshot_s);
  b.model.on_stall_end(b.id, job);
  REQUIRE(job.stage == core::JobStage::COMPUTING); // training resumes while the persist runs
  REQUIRE(job.checkpoint.persists.size() == 1);
  CHECK(b.io.started.at(1).direction == core::IoDirection::WRITE);
  CHECK(job.checkpoint.persisted_s == 0.0);
  CHECK(job.accounting.checkpoints == 1);

  SECTION("a failure before the persist ends loses the snapshot") {
    b.timer.set_now(1500.0);
    b.model.stop_progress(job);
    b.model.cancel_transfers(job);
    b.model.roll_back(job, 8.0);
    CHECK(b.io.cancelled == std::vector<core::TransferId>{1});
    CHECK(job.checkpoint.progress_s == 0.0);
    CHECK(job.accounting.lost_work_s == Approx(1500.0 - snapshot_s));
    CHECK_FALSE(job.checkpoint.needs_restore);
  }
  SECTION("a finished persist: the checkpoint counts, its slowdown delays the segment") {
    b.timer.set_now(1100.0);
    double persist_s = 1100.0 - (1000.0 + snapshot_s);
    b.model.on_transfer_done(b.id, job, b.io.done(1, persist_s));
    CHECK(job.checkpoint.persisted_s == 1000.0);
    double debt_s = persist_s * SLOWDOWN;
    CHECK(job.checkpoint.cost_s == Approx(snapshot_s + debt_s));
    double progress_s = 1000.0 + persist_s;
    CHECK(b.last<core::SegmentEnded>().first == Approx(1100.0 + (2000.0 - progress_s) + debt_s));
    b.timer.set_now(1500.0);
    b.model.stop_progress(job);
    b.model.roll_back(job, 8.0);
    CHECK(job.checkpoint.progress_s == 1000.0);
    CHECK(job.accounting.lost_work_s == Approx(progress_s + (400.0 - debt_s) - 1000.0));
    CHECK(job.checkpoint.needs_restore);
  }
  SECTION("the next checkpoint waits for a free snapshot slot") {
    auto [t, e] = b.timer.last<core::SegmentEnded>();
    b.timer.set_now(t);
    b.model.on_segment_end(b.id, job);
    REQUIRE(job.stage == core::JobStage::SLOT_WAIT); // one slot, still held by the first persist
    b.timer.set_now(t + 30.0);
    b.model.on_transfer_done(b.id, job, b.io.done(1, t + 30.0 - 1000.0 - snapshot_s));
    CHECK(job.stage == core::JobStage::SNAPSHOTTING);
    CHECK(job.accounting.stall_s == Approx(snapshot_s + (t + 30.0 - 1000.0 - snapshot_s) * SLOWDOWN + 30.0));
  }
}

TEST_CASE("core::checkpoint_model: a preempted job saves before it leaves, or loses its progress",
          "[core][checkpoint]") {
  Bench b(false);
  core::JobRuntime& job = b.job();
  b.model.resume(b.id, job);
  b.timer.set_now(600.0);
  b.model.stop_progress(job);
  SECTION("save on preempt") {
    b.model.preempt(b.id, job);
    REQUIRE(job.stage == core::JobStage::SAVING);
    REQUIRE(b.control.calls.empty()); // the attempt ends once saved
    b.timer.set_now(630.0);
    b.model.on_transfer_done(b.id, job, b.io.done(1, 30.0));
    CHECK(b.control.calls == std::vector<std::string>{"end 1 QUEUED CANCELLED"});
    CHECK(job.checkpoint.persisted_s == 600.0);
    CHECK(job.checkpoint.needs_restore);
  }
  SECTION("no save") {
    b.faults.preemption.save_on_preempt = false;
    b.model.preempt(b.id, job);
    CHECK(b.control.calls == std::vector<std::string>{"end 1 QUEUED CANCELLED"});
    CHECK(job.accounting.lost_work_s == 600.0);
    CHECK(job.checkpoint.progress_s == 0.0);
    CHECK_FALSE(job.checkpoint.needs_restore);
  }
}

TEST_CASE("core::checkpoint_model: a progress-rate change mid-segment stops progress there and reschedules its end",
          "[core][checkpoint][network]") {
  Bench b(false);
  core::JobRuntime& job = b.job();
  b.model.resume(b.id, job);
  REQUIRE(b.last<core::SegmentEnded>().first == INTERVAL_S);
  std::uint32_t first = job.generation;

  b.timer.set_now(400.0);
  b.model.set_progress_rate(b.id, job, 0.5); // the network halves the pace 400 s in
  CHECK(job.checkpoint.progress_s == 400.0);
  CHECK(job.generation != first); // the old segment end is stale
  CHECK(b.last<core::SegmentEnded>().first == Approx(400.0 + 600.0 / 0.5));

  b.timer.set_now(1000.0);
  b.model.set_progress_rate(b.id, job, 1.0); // back to full speed
  CHECK(job.checkpoint.progress_s == Approx(700.0));
  CHECK(job.accounting.comm_lost_s == Approx(300.0)); // 600 s of wall time made 300 s of progress
  CHECK(b.last<core::SegmentEnded>().first == Approx(1300.0));

  b.timer.set_now(1300.0);
  b.model.on_segment_end(b.id, job);
  CHECK(job.checkpoint.progress_s == INTERVAL_S);
  CHECK(job.stage == core::JobStage::CHECKPOINTING);
  CHECK(job.accounting.comm_lost_s == Approx(300.0));

  SECTION("the same rate again changes nothing") {
    b.model.on_transfer_done(b.id, job, b.io.done(1, 50.0));
    std::uint32_t g = job.generation;
    std::size_t events = b.timer.scheduled.size();
    b.model.set_progress_rate(b.id, job, 1.0);
    CHECK(job.generation == g);
    CHECK(b.timer.scheduled.size() == events);
  }
  SECTION("a rate set while stalled applies from the next segment") {
    b.model.set_progress_rate(b.id, job, 0.25);
    CHECK(job.stage == core::JobStage::CHECKPOINTING);
    b.timer.set_now(1350.0);
    b.model.on_transfer_done(b.id, job, b.io.done(1, 50.0));
    CHECK(b.last<core::SegmentEnded>().first == Approx(1350.0 + INTERVAL_S / 0.25));
    b.timer.set_now(1450.0);
    b.model.stop_progress(job); // a failure: progress stops at the slow pace
    CHECK(job.checkpoint.progress_s == Approx(INTERVAL_S + 25.0));
    CHECK(job.accounting.comm_lost_s == Approx(300.0 + 75.0));
  }
}

TEST_CASE("core::checkpoint_model: a rate change while a persist's slowdown is being paid carries the rest over",
          "[core][checkpoint][network]") {
  Bench b(true);
  core::JobRuntime& job = b.job();
  b.model.resume(b.id, job);
  b.timer.set_now(1000.0);
  b.model.on_segment_end(b.id, job);
  double snapshot_s = BYTES / 8 / D2H_BPS;
  b.timer.set_now(1000.0 + snapshot_s);
  b.model.on_stall_end(b.id, job);
  b.timer.set_now(1100.0);
  double persist_s = 1100.0 - (1000.0 + snapshot_s);
  b.model.on_transfer_done(b.id, job, b.io.done(1, persist_s));
  double debt_s = persist_s * SLOWDOWN;
  double progress_s = job.checkpoint.progress_s;
  REQUIRE(job.checkpoint.segment_debt_s == Approx(debt_s));
  // Half of the debt paid, then the pace halves: the other half is still owed, then progress at 0.5.
  b.timer.set_now(1100.0 + debt_s / 2);
  b.model.set_progress_rate(b.id, job, 0.5);
  CHECK(job.checkpoint.progress_s == Approx(progress_s));
  CHECK(job.checkpoint.segment_debt_s == Approx(debt_s / 2));
  CHECK(b.last<core::SegmentEnded>().first ==
        Approx(1100.0 + debt_s / 2 + debt_s / 2 + (2 * INTERVAL_S - progress_s) / 0.5));
}

TEST_CASE("core::checkpoint_model: a slow node sets the pace with the network; each is charged its own loss",
          "[core][checkpoint][slow]") {
  Bench b(false);
  core::JobRuntime& job = b.job();
  b.model.resume(b.id, job);
  b.timer.set_now(400.0);
  b.model.set_node_pace(b.id, job, 0.5); // a straggler: half speed 400 s in
  CHECK(job.checkpoint.progress_s == 400.0);
  CHECK(b.last<core::SegmentEnded>().first == Approx(400.0 + 600.0 / 0.5));

  b.timer.set_now(1000.0);
  b.model.set_progress_rate(b.id, job, 0.5); // the network halves it too: 0.25 in all
  CHECK(job.checkpoint.progress_s == Approx(700.0));
  CHECK(job.accounting.straggler_lost_s == Approx(300.0));
  CHECK(job.accounting.comm_lost_s == 0.0);
  CHECK(b.last<core::SegmentEnded>().first == Approx(1000.0 + 300.0 / 0.25));

  b.timer.set_now(1400.0);
  b.model.set_node_pace(b.id, job, 1.0); // 400 s at 0.25: 100 s of progress, 300 s lost
  CHECK(job.checkpoint.progress_s == Approx(800.0));
  CHECK(job.accounting.comm_lost_s == Approx(200.0));      // the network's half of the 400 s
  CHECK(job.accounting.straggler_lost_s == Approx(400.0)); // 300 + the other 100
  CHECK(b.last<core::SegmentEnded>().first == Approx(1400.0 + 200.0 / 0.5));
}

TEST_CASE("core::checkpoint_model: a failure's downtime splits into detection and restart", "[core][checkpoint]") {
  Bench b(false);
  core::JobRuntime& job = b.job();
  job.failed_at_s = 500.0;    // the failure
  job.recovered_at_s = 800.0; // its recovery steps ended; then new hosts, the queue, the restore
  b.timer.set_now(1000.0);
  b.model.resume(b.id, job);
  CHECK(job.accounting.lost_gpu_s == Approx(8 * 500.0));
  CHECK(job.accounting.detection_gpu_s == Approx(8 * 300.0));
  CHECK(job.accounting.restart_gpu_s == Approx(8 * 200.0));
  CHECK(job.failed_at_s < 0.0);
  CHECK(job.recovered_at_s < 0.0);

  job.failed_at_s = 2000.0; // a failure whose recovery was never marked: all of it is detection
  b.timer.set_now(2100.0);
  b.model.stop_progress(job);
  b.model.resume(b.id, job);
  CHECK(job.accounting.detection_gpu_s == Approx(8 * 300.0 + 8 * 100.0));
  CHECK(job.accounting.restart_gpu_s == Approx(8 * 200.0));
}
