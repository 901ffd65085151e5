#include "sim/core/event_loop.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "sim/config/calibration.hpp"
#include "sim/model/assert.hpp"
#include "sim/model/error.hpp"

namespace acme::core {
namespace {
constexpr double NEVER = std::numeric_limits<double>::infinity();
constexpr int MAX_ROUNDS_PER_INSTANT = 1 << 20;

model::ClusterShape shape_of(const config::ClusterConfig& c, model::ClusterId id,
                             const topology::ClusterVertices& vertices) {
  model::ClusterShape shape;
  shape.id = id;
  shape.name = c.name;
  shape.nodes = c.nodes;
  shape.gpus_per_node = c.gpus_per_node;
  shape.gpus_of_node = c.gpus_of_node;
  shape.cpu_pool_cores = c.nodes * c.cpu_job_cores_per_node;
  shape.leaf_of_node = vertices.leaf_of_node;
  shape.leaves = static_cast<std::uint32_t>(vertices.leaves.size());
  shape.utc_offset_s = c.utc_offset_s;
  return shape;
}

/// Costs of the checkpoint model, from the run's calibration (`calibration:`; default: the A100
/// spec, configs/calibration/a100-spec.yaml). When every GPU of a node copies at once, the two GPUs
/// under each PCIe switch share its link (`checkpoint.gpus_per_pcie_switch`).
CheckpointCosts costs_from(const config::Config& config) {
  config::Calibration cal = config::load_calibration(config.root["calibration"], config.base_dir);
  double share = config.faults->checkpoint.gpus_per_pcie_switch;
  return CheckpointCosts{cal.d2h_pinned_bw_Bps / share, cal.h2d_pinned_bw_Bps / share,
                         cal.async_compute_slowdown_fraction};
}

/// The clusters with their schedulers and placement policies, no jobs yet.
JobTable make_table(const LoopSetup& setup) {
  const config::Config& cfg = *setup.config;
  JobTable table;
  for (std::size_t c = 0; c < cfg.clusters.size(); ++c) {
    const auto& cc = cfg.clusters[c];
    model::ClusterId id{static_cast<std::uint16_t>(c)};
    policies::PolicyContext context{cfg.seed, cc.name, cfg.base_dir};
    ClusterRuntime runtime(model::ClusterView(shape_of(cc, id, setup.graph->cluster(id))));
    runtime.scheduler = setup.registries->schedulers.create(cc.scheduler, context);
    runtime.scheduler->set_placement(setup.registries->placements.create(cc.placement, context));
    runtime.jobs_on_node.resize(cc.nodes);
    runtime.launch_latency = cc.launch_latency;
    std::uint32_t cpu_servers = cfg.power->cpu_server.servers_for(runtime.view.shape().cpu_pool_cores);
    if (PodLaunch pods(cc.pods, cc.nodes, cpu_servers, cfg.seed, cc.name); pods.enabled()) {
      runtime.pods.emplace(std::move(pods));
    }
    runtime.storage_bw_Bps = cc.storage.bw_Bps;
    runtime.storage_nic_bw_Bps = setup.storage_nic_bw_Bps.at(c);
    table.clusters.push_back(std::move(runtime));
  }
  return table;
}

std::vector<std::unique_ptr<policies::PowerPolicy>> power_policies(const LoopSetup& setup) {
  std::vector<std::unique_ptr<policies::PowerPolicy>> out;
  for (const auto& cc : setup.config->clusters) {
    policies::PolicyContext context{setup.config->seed, cc.name, setup.config->base_dir};
    out.push_back(setup.registries->powers.create(cc.power, context));
  }
  return out;
}

std::vector<FailureShape> failure_shapes(const config::Config& cfg, const topology::ClusterGraph& graph) {
  std::vector<FailureShape> shapes;
  for (std::size_t c = 0; c < cfg.clusters.size(); ++c) {
    FailureShape shape;
    shape.nodes = cfg.clusters[c].nodes;
    for (topology::Vertex leaf : graph.cluster(model::ClusterId{static_cast<std::uint16_t>(c)}).leaves) {
      shape.nodes_of_leaf.push_back(graph.nodes_under(leaf));
    }
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

/// A scheduler that never starts nor rejects some jobs leaves them queued once nothing else can happen:
/// a fault of the scheduler (a Python one is the user's code), reported as such rather than as a
/// broken invariant.
void check_queues_drained(const JobTable& table, const config::Config& cfg) {
  for (std::size_t c = 0; c < table.clusters.size(); ++c) {
    const model::ClusterView& view = table.clusters[c].view;
    if (view.queued_jobs() == 0) {
      continue;
    }
    auto first = std::find_if(view.jobs().begin(), view.jobs().end(),
                              [](const auto& j) { return j.second.phase == model::JobPhase::QUEUED; });
    const config::Node& where = cfg.clusters[c].scheduler.node;
    throw ConfigError(where.location(), where.path(),
                      "the scheduler left " + std::to_string(view.queued_jobs()) +
                          " jobs waiting when nothing else could happen (the first: job_id " +
                          excerpt(first->second.spec.name) + ", " + std::to_string(first->second.spec.gpus) +
                          " GPUs); expected every job to be started or rejected");
  }
}

std::unique_ptr<LinkFailures> make_link_failures(const config::Config& cfg, TimerService& timer,
                                                 model::ClusterRngs& rng, FabricService& fabric) {
  std::vector<std::uint32_t> uplinks;
  std::vector<std::uint32_t> leaves;
  for (const auto& c : cfg.clusters) {
    uplinks.push_back(c.network.uplinks_per_leaf);
    leaves.push_back((c.nodes + c.network.nodes_per_leaf - 1) / c.network.nodes_per_leaf);
  }
  return std::make_unique<LinkFailures>(cfg.faults->failures, std::move(uplinks), std::move(leaves), timer, rng,
                                        fabric);
}

std::vector<config::TeamPlanConfig> team_plans(const config::Config& config) {
  std::vector<config::TeamPlanConfig> plans;
  for (const auto& c : config.clusters) {
    plans.push_back(c.team_plan);
  }
  return plans;
}

std::vector<const model::ClusterView*> views_of(const JobTable& table) {
  std::vector<const model::ClusterView*> views;
  for (const auto& c : table.clusters) {
    views.push_back(&c.view);
  }
  return views;
}

} // namespace

EventLoop::EventLoop(LoopSetup setup)
    : config_(*setup.config)
    , workload_(std::move(setup.workload))
    , recorder_(*setup.recorder)
    , check_invariants_(setup.check_invariants)
    , failure_rng_(config_.seed, "engine/failures", config_.cluster_names())
    , recovery_rng_(config_.seed, "engine/recovery", config_.cluster_names())
    , launch_rng_(config_.seed, "engine/launch", config_.cluster_names())
    , link_rng_(config_.seed, "engine/links", config_.cluster_names())
    , slow_rng_(config_.seed, "engine/slow", config_.cluster_names())
    , checkpoint_policy_(
          setup.registries->checkpoints.create(config_.faults->checkpoint.policy, {config_.seed, "", config_.base_dir}))
    , recovery_policy_(
          setup.registries->recoveries.create(config_.faults->recovery.policy, {config_.seed, "", config_.base_dir}))
    , table_(make_table(setup))
    , power_(config_, table_)
    , nodes_(table_, *setup.io, recorder_.events())
    , power_control_(power_policies(setup), queue_, table_, nodes_, power_)
    , lifecycle_(*config_.faults, queue_, *setup.io, table_, nodes_, recorder_, launch_rng_)
    , checkpoint_(*config_.faults, *checkpoint_policy_, costs_from(config_), queue_, *setup.io, table_, lifecycle_,
                  launch_rng_, recorder_.events())
    , traffic_(config_, table_, checkpoint_, setup.fabric)
    , plans_(queue_, *setup.io, table_, lifecycle_, checkpoint_.costs().h2d_Bps)
    , recovery_(*config_.faults, *recovery_policy_, queue_, *setup.io, table_, lifecycle_, nodes_, recovery_rng_,
                workload_->epoch_unix_s())
    , failures_(config_.faults->failures, failure_shapes(config_, *setup.graph), queue_, failure_rng_, nodes_,
                lifecycle_)
    , links_(setup.fabric == nullptr ? nullptr : make_link_failures(config_, queue_, link_rng_, *setup.fabric))
    , sampler_(
          config_.output.timeseries_interval_s, views_of(table_),
          [this](const metrics::ClusterSample& s) { recorder_.on_sample(s); }, network_probe(), &power_,
          config_.output.timeseries_interval_where)
    , plan_(team_plans(config_)) {
  lifecycle_.attach({&checkpoint_, &plans_, &recovery_, &traffic_, &power_, &chain_, &plan_, &failures_});
  if (traffic_.fluid()) {
    checkpoint_.attach(&traffic_);
  }
  if (links_) {
    links_->start();
  }
  start_slow_nodes();
  next_job_ = workload_->next();
  recovery_.set_aside_spares();
  start_failures();
}

Sampler::Probe EventLoop::network_probe() {
  if (!traffic_.fluid()) {
    return {};
  }
  return [this](std::size_t c, metrics::ClusterSample& s) {
    FabricSample f = traffic_.sample(model::ClusterId{static_cast<std::uint16_t>(c)});
    s.network = true;
    s.nic_util_mean = f.nic_util_mean;
    s.nic_util_p95 = f.nic_util_p95;
    s.nic_idle_share = f.nics > 0 ? static_cast<double>(f.nics_idle) / f.nics : 0.0;
    s.spine_util = f.spine_util;
    s.nics = f.nics;
    s.nics_idle = f.nics_idle;
    s.nics_above_quarter = f.nics_above_quarter;
  };
}

double EventLoop::next_time_s() const {
  if (table_.jobs.empty() && !next_job_ && chain_.empty() && plan_.empty()) {
    return NEVER; // only failure and repair processes are left: the run is over
  }
  double t = std::min({queue_.next_time_s(), chain_.next_time_s(), plan_.next_time_s()});
  if (next_job_ && next_job_->submit_time_s < t) {
    t = next_job_->submit_time_s;
  }
  return t;
}

void EventLoop::process_instant(double now_s) {
  queue_.advance_to(now_s);
  for (auto& c : table_.clusters) {
    c.view.set_now(now_s);
  }
  sampler_.sample_until(now_s, false);
  for (int round = 0; round < MAX_ROUNDS_PER_INSTANT; ++round) {
    while (queue_.has_due()) {
      dispatch(queue_.pop());
    }
    take_submissions(now_s);
    recovery_.restart_awaiting_jobs();
    run_schedulers();
    power_control_.decide();
    // Decisions can cause events at once (a preemption without a save ends its job, a rejection ends one):
    // the scheduler hears of them in this instant, in a further round.
    if (!queue_.has_due() && !plans_.has_spawned() && chain_.next_time_s() > now_s && plan_.next_time_s() > now_s &&
        !events_undelivered()) {
      break;
    }
  }
  ++instants_;
  if (check_invariants_) {
    check_invariants();
  }
}

void EventLoop::finish() {
  sampler_.sample_until(queue_.now_s(), true);
  check_queues_drained(table_, config_);
  ACME_ASSERT(table_.jobs.empty(), "every submitted job is accounted for");
  recorder_.on_power(power_.finish(queue_.now_s()));
  const config::FailureConfig& failures = config_.faults->failures;
  if (failures.enabled || !failures.trace_path.empty()) {
    std::vector<metrics::NodeRecord> records = failures_.node_records(queue_.now_s());
    for (metrics::NodeRecord& r : records) {
      r.slow_periods = slow_ ? slow_->periods(model::ClusterId{r.cluster}, r.node) : 0;
    }
    recorder_.on_nodes(metrics::nodes_csv(records, config_.cluster_names(), failures.category_names()));
  }
}

void EventLoop::dispatch(const EngineEvent& event) {
  std::visit([this](const auto& e) { on(e); }, event);
}

// One handler per event. A job event of a stage the job has left (or of a job that ended) is dropped.

void EventLoop::on(const JobLaunched& e) {
  if (JobRuntime* job = table_.live(e.job, e.generation)) {
    lifecycle_.on_launched(e.job, *job);
  }
}

void EventLoop::on(const SegmentEnded& e) {
  if (JobRuntime* job = table_.live(e.job, e.generation)) {
    checkpoint_.on_segment_end(e.job, *job);
  }
}

void EventLoop::on(const StallEnded& e) {
  if (JobRuntime* job = table_.live(e.job, e.generation)) {
    checkpoint_.on_stall_end(e.job, *job);
  }
}

void EventLoop::on(const StepEnded& e) {
  if (JobRuntime* job = table_.live(e.job, e.generation)) {
    plans_.on_step_end(e.job, *job, e.lane);
  }
}

void EventLoop::on(const JobRecovered& e) {
  if (JobRuntime* job = table_.live(e.job, e.generation)) {
    recovery_.on_recovered(e.job, *job);
  }
}

void EventLoop::on(const HangNoticed& e) {
  if (JobRuntime* job = table_.live(e.job, e.generation)) {
    recovery_.on_hang_noticed(e.job, *job, e.requeue_at_s);
  }
}

void EventLoop::on(const TransferDone& e) {
  lifecycle_.on_transfer_done(e);
}

void EventLoop::on(const FlowRatesChanged&) {
  traffic_.on_rates_changed();
}

void EventLoop::on(const SpineLinkFailed& e) {
  links_->on(e);
}

void EventLoop::on(const SpineLinkRepaired& e) {
  links_->on(e);
}

void EventLoop::on(const NodeFailed& e) {
  failures_.on(e);
}

void EventLoop::on(const NodeRepaired& e) {
  failures_.on(e);
}

void EventLoop::on(const LeafFailed& e) {
  failures_.on(e);
}

void EventLoop::on(const LeafRepaired& e) {
  failures_.on(e);
}

void EventLoop::on(const TracedFailure& e) {
  failures_.on(e);
}

void EventLoop::on(const HealthCheck& e) {
  failures_.on(e);
}

void EventLoop::on(const NodeBooted& e) {
  power_control_.on(e);
}

void EventLoop::on(const PowerCheck& e) {
  power_control_.on(e);
}

void EventLoop::on(const PolicyWakeup& e) {
  ClusterRuntime& cluster = table_.cluster(e.cluster);
  cluster.wakeups.erase(e.time_s);
  cluster.woken_at_s = e.time_s;
  cluster.pending.emplace_back(model::WakeUp{e.time_s});
}

void EventLoop::take_submissions(double now_s) {
  for (auto& spec : plans_.take_spawned()) {
    lifecycle_.submit(std::move(spec)); // follow-up jobs of task plans (e.g. metric jobs)
  }
  for (auto& spec : chain_.take_due(now_s)) {
    lifecycle_.submit(std::move(spec)); // attempts resubmitted after their run's previous one ended
  }
  for (auto& spec : plan_.take_due()) {
    if (!chain_.hold(spec)) { // a team's job goes in once its budget has room; a run's later attempts follow it
      lifecycle_.submit(std::move(spec));
    }
  }
  while (next_job_ && next_job_->submit_time_s <= now_s) {
    model::JobSpec spec = std::move(*next_job_);
    next_job_ = workload_->next();
    if (!chain_.hold(spec) && !plan_.hold(spec)) {
      lifecycle_.submit(std::move(spec));
    }
  }
}

void EventLoop::run_schedulers() {
  for (auto& cluster : table_.clusters) {
    if (cluster.pending.empty()) {
      continue;
    }
    events_scratch_.swap(cluster.pending); // reuse the vectors' storage from instant to instant
    cluster.pending.clear();
    std::vector<model::Decision> decisions = cluster.scheduler->on_events(events_scratch_, cluster.view);
    for (const auto& decision : decisions) {
      lifecycle_.apply(cluster, decision);
    }
    power_control_.after_round(cluster.view.shape().id);
  }
}

bool EventLoop::events_undelivered() const {
  return std::any_of(table_.clusters.begin(), table_.clusters.end(),
                     [](const ClusterRuntime& c) { return !c.pending.empty(); });
}

void EventLoop::check_invariants() const {
  for (const auto& cluster : table_.clusters) {
    std::uint64_t allocated_milli = 0; // fractional jobs hold shares of GPUs
    for (const auto& [id, entry] : cluster.view.jobs()) {
      for (const auto& share : entry.placement) {
        allocated_milli += model::share_milli(share);
      }
    }
    ACME_ASSERT(allocated_milli == cluster.view.allocated_gpu_milli(),
                "allocated GPUs match the running jobs' placements");
    ACME_ASSERT(cluster.view.busy_gpus() <= cluster.view.total_gpus(), "GPUs are never over-allocated");
  }
}

} // namespace acme::core
