#include "sim/core/power_meter.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <numeric>

#include "sim/model/assert.hpp"

namespace acme::core {
namespace {

constexpr double GOLDEN_SHARE = 0.6180339887498949;
constexpr std::uint64_t ID_MIX = 0x9E3779B97F4A7C15ULL;
/// Assumption: a non-blocking two-level fat tree of 40-port switches: each leaf's 20 uplinks land on
/// spines of 40 ports, so there is one spine switch per two leaves.
constexpr std::uint32_t LEAVES_PER_SPINE = 2;
/// Assumption: in clusters of more nodes than this, a node's idle offset is rounded to 1/IDLE_STEPS of the
/// spread (0.125 W at the default 8 W), so the nodes fall into a few power classes and a job that carries
/// thousands of nodes books them class by class. Rounding is symmetric: the offsets still sum to zero.
constexpr double IDLE_STEPS = 64.0;

/// Node `n`'s place in 0..nodes-1 under a fixed permutation (multiplication by a stride coprime with
/// `nodes`, near the golden share of it), so that neighbouring nodes get distant idle draws and the
/// offsets of a whole cluster sum to zero.
std::uint32_t spread_position(std::uint32_t n, std::uint32_t nodes) {
  auto stride = static_cast<std::uint64_t>(GOLDEN_SHARE * nodes);
  while (stride > 1 && std::gcd(stride, std::uint64_t{nodes}) != 1) {
    --stride;
  }
  return static_cast<std::uint32_t>((std::uint64_t{n} * std::max<std::uint64_t>(stride, 1)) % nodes);
}

double gpus_of(const model::NodeShare& share) {
  return static_cast<double>(model::share_milli(share)) / model::MILLI_PER_GPU;
}

/// Adds `dt` to the ledger's time at draw `extra_W` (a job has few: busy, checkpoint or restore, idle).
void note_level(std::vector<DrawLevel>& levels, double extra_W, double dt) {
  for (DrawLevel& level : levels) {
    if (level.extra_W == extra_W) {
      level.seconds += dt;
      return;
    }
  }
  levels.push_back(DrawLevel{extra_W, dt});
}

bool is_stall(JobStage stage) {
  return stage == JobStage::CHECKPOINTING || stage == JobStage::SNAPSHOTTING || stage == JobStage::SLOT_WAIT;
}

} // namespace

PowerMeter::PowerMeter(const config::Config& config, JobTable& table)
    : power_(*config.power)
    , table_(table)
    , seed_(config.seed) {
  for (std::size_t c = 0; c < config.clusters.size(); ++c) {
    clusters_.push_back(make_cluster(config.clusters[c], table_.clusters.at(c).view));
    clusters_.back().draw_seed = seed_ ^ model::Rng::hash("engine/power/" + config.clusters[c].name);
  }
}

PowerMeter::ClusterMeter PowerMeter::make_cluster(const config::ClusterConfig& cc,
                                                  const model::ClusterView& view) const {
  const config::NodeBasePower& base = power_.node;
  ClusterMeter c;
  c.idle_W = cc.gpu.idle_power_W;
  c.base_idle_W = base.cpu_idle_W + base.other_idle_W;
  c.efficiency = base.psu_efficiency;
  c.node_off_W = base.off_W;
  double base_range_W = (base.cpu_busy_W - base.cpu_idle_W) + (base.other_busy_W - base.other_idle_W);
  std::uint32_t nodes = view.shape().nodes;
  std::map<std::pair<double, std::uint32_t>, std::uint32_t> classes; // (idle draw, GPUs) -> class
  for (std::uint32_t n = 0; n < nodes; ++n) {
    NodeMeter m;
    m.gpus = view.gpus_of(model::NodeId{n});
    double position = (spread_position(n, nodes) + 0.5) / nodes - 0.5;
    position = nodes > IDLE_STEPS ? std::round(position * IDLE_STEPS) / IDLE_STEPS : position;
    m.idle_W = c.idle_W + power_.gpu.idle_spread_W * position;
    double gpu_range_W = m.gpus * (cc.gpu.max_power_W - cc.gpu.idle_power_W);
    m.slope = gpu_range_W > 0.0 ? base_range_W / gpu_range_W : 0.0;
    auto [cls, added] = classes.try_emplace({m.idle_W, m.gpus}, static_cast<std::uint32_t>(c.classes.size()));
    m.power_class = cls->second;
    if (added) {
      c.classes.push_back(m);
    }
    c.gpu_W += node_gpu_W(m);
    c.nodes_W += node_wall_W(c, m);
    c.nodes.push_back(m);
  }
  std::uint32_t pool = view.shape().cpu_pool_cores;
  const config::CpuServerPower& cpu = power_.cpu_server;
  c.cpu_servers = cpu.servers_for(pool);
  c.cpu_idle_W = cpu.idle_W;
  c.cpu_per_core_W = pool > 0 ? c.cpu_servers * (cpu.busy_W - cpu.idle_W) / pool : 0.0;
  c.cpu_W = c.cpu_servers * cpu.idle_W;
  std::uint32_t leaves = view.shape().leaves;
  std::uint32_t spines = (leaves + LEAVES_PER_SPINE - 1) / LEAVES_PER_SPINE;
  c.network_W = (leaves + spines) * power_.switch_W;
  c.fixed_W = c.network_W + power_.storage_W;
  return c;
}

double PowerMeter::node_gpu_W(const NodeMeter& n) const {
  return n.power == model::NodePower::OFF ? 0.0 : n.gpus * n.idle_W + n.extra_W;
}

double PowerMeter::node_wall_W(const ClusterMeter& c, const NodeMeter& n) const {
  if (n.power == model::NodePower::OFF) {
    return c.node_off_W;
  }
  return node_wall_at_W(c, n, n.extra_W);
}

double PowerMeter::node_wall_at_W(const ClusterMeter& c, const NodeMeter& n, double extra_W) const {
  return (n.gpus * n.idle_W + extra_W * (1.0 + n.slope) + c.base_idle_W) / c.efficiency;
}

void PowerMeter::advance(ClusterMeter& c, double now_s) {
  double dt = now_s - c.last_s;
  if (dt <= 0.0) {
    return;
  }
  c.gpu_J += c.gpu_W * dt;
  c.nodes_J += c.nodes_W * dt;
  c.cpu_J += c.cpu_W * dt;
  c.report.peak_W = std::max(c.report.peak_W, c.nodes_W + c.cpu_W + c.fixed_W);
  if (c.cpu_servers > 0) {
    c.report.cpu_server_W.add(c.cpu_W / c.cpu_servers, c.cpu_servers * dt);
  }
  c.last_s = now_s;
}

void PowerMeter::touch(ClusterMeter& c, NodeMeter& n, double now_s) {
  double dt = now_s - n.since_s;
  if (dt > 0.0) {
    bool off = n.power == model::NodePower::OFF;
    c.report.gpu_server_W.add(node_wall_W(c, n), dt);
    c.report.gpu_W.add(off ? 0.0 : n.idle_W, (n.gpus - n.active_gpus) * dt);
    c.report.node_off_s += off ? dt : 0.0;
  }
  n.since_s = now_s;
}

void PowerMeter::shift_node(ClusterMeter& c, NodeMeter& n, double extra_W, double active, double now_s) {
  touch(c, n, now_s);
  double wall = node_wall_W(c, n);
  double gpu = node_gpu_W(n);
  n.extra_W += extra_W;
  n.active_gpus += active;
  c.nodes_W += node_wall_W(c, n) - wall;
  c.gpu_W += node_gpu_W(n) - gpu;
}

void PowerMeter::admit(model::JobId id, JobRuntime& job, const model::JobSpec& spec) {
  job.power.id = id;
  job.listener = this;
  if (spec.is_cpu_job()) {
    return;
  }
  // Keyed by the job's rank among its cluster's GPU jobs, not by its global id: another cluster's
  // workload must not move this cluster's draws (nor its energy).
  ClusterMeter& c = meter_of(job);
  model::Rng rng(c.draw_seed ^ (++c.gpu_jobs * ID_MIX));
  double busy_W = power_.gpu.busy[static_cast<std::size_t>(spec.type)].sample(rng);
  job.power.busy_extra_W = std::max(0.0, busy_W - meter_of(job).idle_W);
}

void PowerMeter::allocated(JobRuntime& job) {
  JobPower& p = job.power;
  ClusterMeter& c = meter_of(job);
  const model::ClusterView& view = table_.cluster_of(job).view;
  const model::JobEntry& entry = view.job(p.id);
  ACME_ASSERT(p.carried_nodes.empty() && p.levels.empty(), "a job's ledger is booked when it leaves its nodes");
  take_placement(c, p, entry.placement, view.now_s());
  if (!p.allocated && entry.placement.empty() && entry.spec.cpus > 0) {
    double cores = entry.spec.cpus;
    std::uint32_t pool = view.shape().cpu_pool_cores;
    p.held_W = cores * ((pool > 0 ? c.cpu_servers * c.cpu_idle_W / pool : 0.0) + c.cpu_per_core_W);
    set_cpu_cores(c, cores, view.now_s());
  }
  p.since_s = view.now_s();
  p.allocated = true;
}

void PowerMeter::placement_changed(JobRuntime& job, const std::vector<model::NodeSwap>& swaps) {
  ACME_ASSERT(job.power.extra_W == 0.0, "a job moves to other nodes only while its GPUs are idle");
  ClusterMeter& c = meter_of(job);
  const model::ClusterView& view = table_.cluster_of(job).view;
  close_segment(c, job, view.now_s());
  // Only the nodes it left are booked, and only the nodes it joined start: a recovery that replaces one
  // node of a 4,096-node job costs one node's booking, not 4,096.
  if (!swap_carried(c, job.power, swaps, view.now_s())) {
    take_placement(c, job.power, view.job(job.power.id).placement, view.now_s());
  }
}

void PowerMeter::releasing(JobRuntime& job) {
  JobPower& p = job.power;
  if (!p.allocated) {
    return;
  }
  ClusterMeter& c = meter_of(job);
  const model::ClusterView& view = table_.cluster_of(job).view;
  double now_s = view.now_s();
  redraw(job, 0.0, false, now_s);
  close_segment(c, job, now_s);
  book_carried(c, p, now_s);
  const model::JobEntry& entry = view.job(p.id);
  if (entry.placement.empty() && entry.spec.cpus > 0) {
    set_cpu_cores(c, -static_cast<double>(entry.spec.cpus), now_s);
  }
  p.allocated = false;
}

void PowerMeter::on_activity(JobRuntime& job, double now_s) {
  if (job.power.allocated) {
    redraw(job, extra_for(job), is_stall(job.stage), now_s);
  }
}

void PowerMeter::close_segment(ClusterMeter& c, JobRuntime& job, double now_s) {
  JobPower& p = job.power;
  double dt = now_s - p.since_s;
  if (dt <= 0.0) {
    return;
  }
  double joules = (p.held_W + p.per_extra_W * p.extra_W) * dt;
  p.energy_J += joules;
  p.stall_J += p.stalled ? joules : 0.0;
  if (!p.carried_nodes.empty()) {
    note_level(p.levels, p.extra_W, dt); // its carried nodes: booked node by node when it leaves them
  }
  if (p.extra_W > 0.0) {
    for (const auto& share : node_by_node_shares(job)) {
      c.report.gpu_W.add(c.nodes[model::to_index(share.node)].idle_W + p.extra_W, gpus_of(share) * dt);
    }
  }
  p.since_s = now_s;
}

void PowerMeter::redraw(JobRuntime& job, double extra_W, bool stalled, double now_s) {
  JobPower& p = job.power;
  if (extra_W == p.extra_W && stalled == p.stalled) {
    return;
  }
  ClusterMeter& c = meter_of(job);
  close_segment(c, job, now_s);
  if (extra_W != p.extra_W) {
    advance(c, now_s);
    if (!p.carried_nodes.empty()) { // its carried nodes draw what it draws: one update for all of them
      c.nodes_W += (extra_W - p.extra_W) * p.carried_wall_per_W;
      c.gpu_W += (extra_W - p.extra_W) * p.carried_gpus;
    }
    double active = (extra_W > 0.0 ? 1.0 : 0.0) - (p.extra_W > 0.0 ? 1.0 : 0.0);
    for (const auto& share : node_by_node_shares(job)) {
      double g = gpus_of(share);
      shift_node(c, c.nodes[model::to_index(share.node)], g * (extra_W - p.extra_W), g * active, now_s);
    }
  }
  p.extra_W = extra_W;
  p.stalled = stalled;
}

double PowerMeter::extra_for(const JobRuntime& job) const {
  double idle_W = clusters_[model::to_index(job.cluster)].idle_W;
  switch (job.stage) {
  case JobStage::COMPUTING:
    return job.power.busy_extra_W;
  case JobStage::CHECKPOINTING:
  case JobStage::SNAPSHOTTING:
  case JobStage::SAVING:
    return std::max(0.0, power_.gpu.checkpoint_W - idle_W);
  case JobStage::RESTORING:
    return std::max(0.0, power_.gpu.restore_W - idle_W);
  case JobStage::PLAN:
    return plan_extra(job);
  default:
    return 0.0; // starting, waiting for a snapshot slot, hung, recovering: the GPUs are held idle
  }
}

double PowerMeter::plan_extra(const JobRuntime& job) const {
  const model::JobSpec& spec = table_.clusters[model::to_index(job.cluster)].view.job(job.power.id).spec;
  const std::vector<std::uint32_t>& at = job.plan.lane_step;
  if (!spec.plan || at.size() != spec.plan->lanes.size() + 1 || spec.gpu_share() <= 0.0) {
    return 0.0; // the plan is not set up yet
  }
  double load_W = std::max(0.0, power_.gpu.model_load_W - clusters_[model::to_index(job.cluster)].idle_W);
  auto step_extra = [&](const model::TaskStep& step) {
    switch (step.kind) {
    case model::TaskStep::Kind::GPU:
      return job.power.busy_extra_W;
    case model::TaskStep::Kind::STORAGE_READ:
    case model::TaskStep::Kind::HOST_COPY:
      return load_W;
    default:
      return 0.0; // CPU work and metrics leave the GPU idle
    }
  };
  const model::TaskPlan& plan = *spec.plan;
  if (at.back() < plan.prologue.size()) {
    return step_extra(plan.prologue[at.back()]);
  }
  double sum_W = 0.0;
  for (std::size_t l = 0; l < plan.lanes.size(); ++l) {
    if (at[l] < plan.lanes[l].size()) {
      sum_W += plan.gpus_per_lane * step_extra(plan.lanes[l][at[l]]);
    }
  }
  return sum_W / spec.gpu_share(); // spread over the job's GPUs
}

void PowerMeter::set_cpu_cores(ClusterMeter& c, double delta_cores, double now_s) {
  advance(c, now_s);
  c.cpu_used_cores += delta_cores;
  c.cpu_W = c.cpu_servers * c.cpu_idle_W + c.cpu_used_cores * c.cpu_per_core_W;
}

void PowerMeter::set_node_power(model::ClusterId cluster, std::uint32_t node, model::NodePower power, double now_s) {
  ClusterMeter& c = clusters_.at(model::to_index(cluster));
  NodeMeter& n = c.nodes.at(node);
  ACME_ASSERT(!n.carried, "power policies switch only nodes no job holds");
  advance(c, now_s);
  touch(c, n, now_s);
  double wall = node_wall_W(c, n);
  double gpu = node_gpu_W(n);
  c.report.boots += power == model::NodePower::BOOTING && n.power != model::NodePower::BOOTING ? 1 : 0;
  n.power = power;
  c.nodes_W += node_wall_W(c, n) - wall;
  c.gpu_W += node_gpu_W(n) - gpu;
}

double PowerMeter::energy_J(model::ClusterId cluster, double at_s) const {
  const ClusterMeter& c = clusters_.at(model::to_index(cluster));
  return c.nodes_J + c.cpu_J + (c.nodes_W + c.cpu_W) * (at_s - c.last_s) + c.fixed_W * at_s;
}

double PowerMeter::power_W(model::ClusterId cluster) const {
  const ClusterMeter& c = clusters_.at(model::to_index(cluster));
  return c.nodes_W + c.cpu_W + c.fixed_W;
}

double PowerMeter::node_idle_W(model::ClusterId cluster, std::uint32_t node) const {
  return clusters_.at(model::to_index(cluster)).nodes.at(node).idle_W;
}

std::vector<metrics::ClusterPowerReport> PowerMeter::finish(double now_s) {
  std::vector<metrics::ClusterPowerReport> out;
  for (ClusterMeter& c : clusters_) {
    advance(c, now_s);
    for (NodeMeter& n : c.nodes) {
      ACME_ASSERT(!n.carried, "every job has left its nodes when the meter closes");
      touch(c, n, now_s);
    }
    metrics::ClusterPowerReport r = c.report;
    r.span_s = now_s;
    r.gpu_J = c.gpu_J;
    r.node_base_J = c.nodes_J - c.gpu_J;
    r.cpu_servers_J = c.cpu_J;
    r.network_J = c.network_W * now_s;
    r.storage_J = (c.fixed_W - c.network_W) * now_s;
    out.push_back(std::move(r));
  }
  return out;
}

} // namespace acme::core
