#include <catch2/catch.hpp>

#include <memory>

#include "sim/core/recovery.hpp"
#include "tests/unit/core/core_fakes.hpp"

using namespace acme;
using test::FakeControl;
using test::FakeIo;
using test::FakeTimer;

namespace {

constexpr double DETECT_S = 60.0;
constexpr double DIAGNOSE_S = 600.0;
constexpr double ISOLATE_S = 300.0;
constexpr double STEPS_S = DETECT_S + DIAGNOSE_S + ISOLATE_S;
constexpr double MONDAY_1AM_UNIX_S = 4 * 86400.0 + 3600.0; // 1970-01-05 01:00 UTC

/// Plans every failure the same way and keeps the last notice.
class FixedPlan final : public policies::RecoveryPolicy {
public:
  explicit FixedPlan(bool keep_nodes) : keep_nodes_(keep_nodes) {}
  policies::RecoveryPlan on_failure(const policies::FailureNotice& failure, model::Rng&) const override {
    last = failure;
    policies::RecoveryPlan plan;
    plan.detect_s = DETECT_S;
    plan.diagnose_s = DIAGNOSE_S;
    plan.isolate_s = ISOLATE_S;
    plan.keep_nodes = keep_nodes_;
    return plan;
  }
  mutable policies::FailureNotice last;

private:
  bool keep_nodes_;
};

struct Bench {
  Bench(bool keep_nodes, std::uint32_t node_count, std::uint32_t spare_count)
      : policy(keep_nodes)
      , table(test::one_cluster(node_count)) {
    faults.failures.categories.push_back({"gpu", 1.0, model::Distribution::fixed(1.0), false});
    faults.failures.categories.push_back({"hang", 1.0, model::Distribution::fixed(1.0), true});
    faults.recovery.spare_nodes = spare_count;
  }
  /// Job 1 on nodes 0 and 1, node `failed` down, the failure handed to recovery at `at_s`.
  core::JobRuntime& fail_job_on(std::uint32_t failed, std::uint32_t category, double at_s) {
    core::JobRuntime& job = test::run_job(table, test::pretrain_job(1, 2, 10000.0));
    job.checkpoint.enabled = true;
    timer.set_now(at_s);
    nodes.down(model::ClusterId{0}, failed, model::OutOfService::REPAIR, "test");
    recovery.on_failure(model::JobId{1}, job, category);
    return job;
  }
  std::vector<model::NodeId> placement_nodes() const {
    std::vector<model::NodeId> out;
    for (const auto& share : table.clusters[0].view.job(model::JobId{1}).placement) {
      out.push_back(share.node);
    }
    return out;
  }

  config::FaultConfig faults;
  FixedPlan policy;
  FakeTimer timer;
  FakeIo io;
  core::JobTable table;
  FakeControl control{table, timer};
  core::NodeAvailability nodes{table, io};
  model::ClusterRngs rng{3, "test", {"c"}};
  core::Recovery recovery{faults, policy, timer, io, table, control, nodes, rng, MONDAY_1AM_UNIX_S};
};

} // namespace

TEST_CASE("core::recovery: manual recovery releases the job and queues it again after the steps", "[core][recovery]") {
  Bench b(false, 4, 0);
  core::JobRuntime& job = b.fail_job_on(1, 0, 100.0);
  CHECK(b.policy.last.category == "gpu");
  CHECK(b.policy.last.nodes == 2);
  CHECK(b.policy.last.local_weekday == 0);                            // a Monday
  CHECK(b.policy.last.local_time_of_day_s == Approx(3600.0 + 100.0)); // 01:01:40 UTC (utc_offset 0)
  CHECK(b.control.calls == std::vector<std::string>{"end 1 HELD FAILED"});
  auto [at_s, recovered] = b.timer.last<core::JobRecovered>();
  CHECK(at_s == 100.0 + STEPS_S);
  CHECK(recovered.generation == job.generation); // scheduled after the release
  b.timer.set_now(at_s);
  b.recovery.on_recovered(model::JobId{1}, job);
  CHECK(b.control.calls.back() == "requeue 1");
}

TEST_CASE("core::recovery: a hung job holds its nodes until the hang is noticed", "[core][recovery]") {
  Bench b(false, 4, 0);
  core::JobRuntime& job = b.fail_job_on(1, 1, 100.0);
  CHECK(job.stage == core::JobStage::HUNG);
  CHECK(b.control.calls.empty());
  auto [noticed_at, noticed] = b.timer.last<core::HangNoticed>();
  CHECK(noticed_at == 100.0 + DETECT_S);
  CHECK(noticed.requeue_at_s == 100.0 + STEPS_S);
  b.timer.set_now(noticed_at);
  b.recovery.on_hang_noticed(model::JobId{1}, job, noticed.requeue_at_s);
  CHECK(b.control.calls == std::vector<std::string>{"end 1 HELD FAILED"});
  CHECK(b.timer.last<core::JobRecovered>().first == 100.0 + STEPS_S);
}

TEST_CASE("core::recovery: a category's silent time comes before the policy's detection", "[core][recovery]") {
  constexpr double SILENT_S = 900.0;
  Bench b(false, 4, 0);
  b.faults.failures.categories[0].detect = model::Distribution::fixed(SILENT_S); // crash: recovery after it
  b.faults.failures.categories[1].detect = model::Distribution::fixed(SILENT_S); // hang: noticed after it
  b.fail_job_on(1, 0, 100.0);
  CHECK(b.policy.last.time_s == 100.0 + SILENT_S); // the policy hears of it when it shows
  CHECK(b.policy.last.local_time_of_day_s == Approx(3600.0 + 100.0 + SILENT_S));
  CHECK(b.timer.last<core::JobRecovered>().first == 100.0 + SILENT_S + STEPS_S);

  Bench hung(false, 4, 0);
  hung.faults.failures.categories[1].detect = model::Distribution::fixed(SILENT_S);
  hung.fail_job_on(1, 1, 100.0);
  CHECK(hung.timer.last<core::HangNoticed>().first == 100.0 + SILENT_S + DETECT_S);
}

TEST_CASE("core::recovery: automatic recovery keeps the healthy nodes and restarts on a spare", "[core][recovery]") {
  Bench b(true, 4, 1);
  b.recovery.set_aside_spares(); // the last node
  model::ClusterId c{0};
  REQUIRE(b.recovery.spares(c) == std::vector<model::NodeId>{model::NodeId{3}});
  REQUIRE(b.nodes.is_down(c, 3));
  core::JobRuntime& job = b.fail_job_on(1, 0, 100.0);
  CHECK(job.stage == core::JobStage::RECOVERING);
  CHECK(b.control.calls.empty()); // it holds its nodes meanwhile
  auto [at_s, recovered] = b.timer.last<core::JobRecovered>();
  CHECK(at_s == 100.0 + STEPS_S);
  b.timer.set_now(at_s);
  b.recovery.on_recovered(model::JobId{1}, job);
  CHECK(b.control.calls == std::vector<std::string>{"relaunch 1"});
  CHECK(b.placement_nodes() == std::vector<model::NodeId>{model::NodeId{0}, model::NodeId{3}});
  CHECK(b.table.clusters[0].jobs_on_node[3] == std::vector<model::JobId>{model::JobId{1}});
  CHECK(b.table.clusters[0].jobs_on_node[1].empty());
  CHECK(b.recovery.spares(c).empty());
  CHECK_FALSE(b.nodes.is_down(c, 3));
  // The first node's NIC carries the job's checkpoints: narrowed while the shares move, widened again.
  CHECK(b.io.widened == std::vector<std::pair<std::uint32_t, std::uint32_t>>{{0, 1}, {0, 2}});

  // The failed node, once repaired, refills the pool instead of coming back.
  CHECK(b.recovery.take_as_spare(c, 1));
  CHECK(b.recovery.spares(c) == std::vector<model::NodeId>{model::NodeId{1}});
  CHECK_FALSE(b.recovery.take_as_spare(c, 2)); // the pool is full
}

TEST_CASE("core::recovery: with no node free, the recovered job waits ahead of the queue", "[core][recovery]") {
  Bench b(true, 3, 0);
  model::JobSpec other = test::pretrain_job(2, 1, 500.0);
  test::run_job(b.table, other, 2); // node 2 is busy
  core::JobRuntime& job = b.fail_job_on(1, 0, 100.0);
  b.timer.set_now(100.0 + STEPS_S);
  b.recovery.on_recovered(model::JobId{1}, job);
  CHECK(job.stage == core::JobStage::AWAITING_NODES);
  b.recovery.restart_awaiting_jobs();
  CHECK(b.control.calls.empty());

  b.table.clusters[0].view.stop_job(model::JobId{2}); // node 2 frees up
  b.recovery.restart_awaiting_jobs();
  CHECK(b.control.calls == std::vector<std::string>{"relaunch 1"});
  CHECK(b.placement_nodes() == std::vector<model::NodeId>{model::NodeId{0}, model::NodeId{2}});
  b.recovery.restart_awaiting_jobs(); // no longer waiting
  CHECK(b.control.calls.size() == 1);
}

TEST_CASE("core::recovery: a node repaired while its job recovers goes back to the job, not to the pool",
          "[core][recovery]") {
  Bench b(true, 4, 1); // no spare set aside: the pool is short
  model::ClusterId c{0};
  core::JobRuntime& job = b.fail_job_on(1, 0, 100.0);
  CHECK_FALSE(b.recovery.take_as_spare(c, 1)); // job 1 still holds node 1
  CHECK(b.recovery.spares(c).empty());
  b.nodes.up(c, 1, model::OutOfService::FAILED, "repaired"); // as JobLifecycle::node_repaired then does
  b.timer.set_now(100.0 + STEPS_S);
  b.recovery.on_recovered(model::JobId{1}, job);
  CHECK(b.control.calls == std::vector<std::string>{"relaunch 1"});
  CHECK(b.placement_nodes() == std::vector<model::NodeId>{model::NodeId{0}, model::NodeId{1}});
  CHECK(b.table.clusters[0].jobs_on_node[1] == std::vector<model::JobId>{model::JobId{1}});
}

TEST_CASE("core::recovery: a node repaired while its job awaits nodes goes back to the job", "[core][recovery]") {
  Bench b(true, 3, 1);                                        // no spare set aside: the pool is short
  test::run_job(b.table, test::pretrain_job(2, 1, 500.0), 2); // node 2 is busy
  model::ClusterId c{0};
  core::JobRuntime& job = b.fail_job_on(1, 0, 100.0);
  b.timer.set_now(100.0 + STEPS_S);
  b.recovery.on_recovered(model::JobId{1}, job);
  REQUIRE(job.stage == core::JobStage::AWAITING_NODES);
  CHECK_FALSE(b.recovery.take_as_spare(c, 1));
  b.nodes.up(c, 1, model::OutOfService::FAILED, "repaired");
  b.recovery.restart_awaiting_jobs();
  CHECK(b.control.calls == std::vector<std::string>{"relaunch 1"});
  CHECK(b.placement_nodes() == std::vector<model::NodeId>{model::NodeId{0}, model::NodeId{1}});
}

TEST_CASE("core::recovery: a hung job's node refills the pool only once the job lets it go", "[core][recovery]") {
  Bench b(false, 4, 1);
  model::ClusterId c{0};
  core::JobRuntime& job = b.fail_job_on(1, 1, 100.0); // hangs on node 1
  CHECK_FALSE(b.recovery.take_as_spare(c, 1));        // the hung job still holds it
  auto [noticed_at, noticed] = b.timer.last<core::HangNoticed>();
  b.timer.set_now(noticed_at);
  b.recovery.on_hang_noticed(model::JobId{1}, job, noticed.requeue_at_s);
  CHECK(b.recovery.take_as_spare(c, 1)); // released: a repair now refills the pool
  CHECK(b.recovery.spares(c) == std::vector<model::NodeId>{model::NodeId{1}});
}

TEST_CASE("core::recovery: a spare whose leaf switch is down is passed over", "[core][recovery]") {
  Bench b(true, 4, 1);
  model::ClusterId c{0};
  b.recovery.set_aside_spares(); // node 3
  b.nodes.down(c, 3, model::OutOfService::SWITCH, "switch");
  core::JobRuntime& job = b.fail_job_on(0, 0, 100.0);
  b.timer.set_now(100.0 + STEPS_S);
  b.recovery.on_recovered(model::JobId{1}, job);
  CHECK(b.control.calls == std::vector<std::string>{"relaunch 1"});
  CHECK(b.placement_nodes() == std::vector<model::NodeId>{model::NodeId{2}, model::NodeId{1}});
  CHECK(b.recovery.spares(c) == std::vector<model::NodeId>{model::NodeId{3}});
}

TEST_CASE("core::recovery: standbys swap in at once; beyond them new hosts take the selection time",
          "[core][recovery]") {
  constexpr double SELECTION_S = 1800.0;
  Bench b(true, 4, 1);
  b.faults.recovery.hosts.selection = model::Distribution::fixed(SELECTION_S);
  model::ClusterId c{0};
  b.recovery.set_aside_spares(); // node 3
  core::JobRuntime& job = b.fail_job_on(1, 0, 100.0);
  b.timer.set_now(100.0 + STEPS_S);
  b.recovery.on_recovered(model::JobId{1}, job);
  CHECK(b.control.calls == std::vector<std::string>{"relaunch 1"}); // no selection: the standby covers it
  CHECK(b.placement_nodes() == std::vector<model::NodeId>{model::NodeId{0}, model::NodeId{3}});

  // The pool is empty now: the next failure waits for new hosts, then takes the idle node 2.
  b.nodes.down(c, 0, model::OutOfService::REPAIR, "test");
  b.timer.set_now(5000.0);
  b.recovery.on_failure(model::JobId{1}, job, 0);
  b.timer.set_now(5000.0 + STEPS_S);
  b.recovery.on_recovered(model::JobId{1}, job);
  CHECK(job.stage == core::JobStage::SELECTING_HOSTS);
  CHECK(b.control.calls.size() == 1);
  auto [at_s, selected] = b.timer.last<core::JobRecovered>();
  CHECK(at_s == 5000.0 + STEPS_S + SELECTION_S);
  CHECK(selected.generation == job.generation);
  b.timer.set_now(at_s);
  b.recovery.on_recovered(model::JobId{1}, job);
  CHECK(b.control.calls == std::vector<std::string>{"relaunch 1", "relaunch 1"});
  CHECK(b.placement_nodes() == std::vector<model::NodeId>{model::NodeId{2}, model::NodeId{3}});
}

TEST_CASE("core::recovery: with no node free, a restart preempts jobs of the preemptible types", "[core][recovery]") {
  auto bench = [](model::JobType victim_type) {
    auto b = std::make_unique<Bench>(true, 4, 0);
    b->faults.recovery.hosts.preemptible = {model::JobType::EVAL};
    model::JobSpec victim = test::pretrain_job(2, 1, 500.0);
    victim.type = victim_type;
    test::run_job(b->table, victim, 2).stage = core::JobStage::COMPUTING; // node 2
    model::JobSpec other = test::pretrain_job(3, 1, 500.0);
    other.type = model::JobType::EVAL;
    test::run_job(b->table, other, 3); // node 3: starting up, not yet running
    return b;
  };
  std::unique_ptr<Bench> b = bench(model::JobType::EVAL);
  core::JobRuntime& job = b->fail_job_on(1, 0, 100.0);
  b->timer.set_now(100.0 + STEPS_S);
  b->recovery.on_recovered(model::JobId{1}, job);
  CHECK(b->control.calls == std::vector<std::string>{"preempt 2", "end 2 QUEUED CANCELLED", "relaunch 1"});
  CHECK(b->placement_nodes() == std::vector<model::NodeId>{model::NodeId{0}, model::NodeId{2}});

  std::unique_ptr<Bench> pretrain = bench(model::JobType::PRETRAIN); // not preemptible: it waits
  core::JobRuntime& waiting = pretrain->fail_job_on(1, 0, 100.0);
  pretrain->timer.set_now(100.0 + STEPS_S);
  pretrain->recovery.on_recovered(model::JobId{1}, waiting);
  CHECK(waiting.stage == core::JobStage::AWAITING_NODES);
  CHECK(pretrain->control.calls.empty());
  pretrain->table.jobs.at(model::JobId{3}).stage = core::JobStage::PLAN; // the evaluation now runs its plan
  pretrain->recovery.restart_awaiting_jobs();
  CHECK(pretrain->control.calls == std::vector<std::string>{"preempt 3", "end 3 QUEUED CANCELLED", "relaunch 1"});
}
