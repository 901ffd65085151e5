#include "sim/core/training_traffic.hpp"

#include <algorithm>
#include <cmath>

#include "sim/model/assert.hpp"

namespace acme::core {
namespace {

// The fabric's sharing is solved to SimGrid's precision (maxmin/precision, 1e-5 by default): a flow
// within that of its demand is not slowed, and a rate that moves by less is not a change.
constexpr double FULL_SHARE = 1.0 - 1e-5;
constexpr double RATE_TOLERANCE = 1e-9;
constexpr double QUARTER = 0.25; // the paper's "25% of NIC bandwidth"
constexpr double P95 = 0.95;
constexpr double IDLE_UTIL = 1e-9; // below this share of its bandwidth a NIC carries nothing

/// Nearest-rank percentile of sorted values.
double percentile(const std::vector<double>& sorted, double q) {
  auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return sorted[std::min(sorted.size() - 1, rank > 0 ? rank - 1 : 0)];
}

} // namespace

TrainingTraffic::TrainingTraffic(const config::Config& config, JobTable& table, CheckpointModel& checkpoint,
                                 FabricService* fabric)
    : config_(config)
    , table_(table)
    , checkpoint_(checkpoint)
    , fabric_(fabric)
    , fluid_(config.network.fluid() && fabric != nullptr) {
  for (const auto& c : config.clusters) {
    model::LayoutInputs in;
    in.gpus_per_node = c.gpus_per_node;
    in.gpu_memory_bytes = c.gpu.memory_bytes;
    in.node_ib_Bps = c.network.nics_per_node * c.network.nic_bw_Bps;
    in.nvlink_Bps = c.nvlink_bw_Bps;
    clusters_.push_back(in);
  }
}

void TrainingTraffic::admit(JobRuntime& job, const model::JobSpec& spec) const {
  job.traffic.modelled = fluid_ && !spec.is_cpu_job();
  if (spec.is_cpu_job() || spec.is_fractional()) {
    return;
  }
  model::LayoutInputs in = clusters_.at(model::to_index(spec.cluster));
  in.gpus = spec.gpus;
  in.type = spec.type;
  in.params = config_.faults->checkpoint.model_params_for(spec);
  in.tp_hint = spec.tp_degree;
  in.pp_hint = spec.pp_degree;
  job.traffic.layout = model::plan_layout(in, config_.network.training);
}

void TrainingTraffic::on_compute_begin(model::JobId id, JobRuntime& job) {
  if (!fluid_ || job.traffic.open || !job.traffic.layout.uses_ib()) {
    return;
  }
  const model::Placement& placement = table_.entry(id, job).placement;
  if (placement.size() < 2) {
    return;
  }
  open(id, job, placement);
}

void TrainingTraffic::open(model::JobId id, JobRuntime& job, const model::Placement& placement) {
  const model::ParallelLayout& l = job.traffic.layout;
  auto nodes = static_cast<std::uint32_t>(placement.size());
  std::uint32_t pp = std::min(l.pp, nodes);
  std::uint32_t per_stage = std::max(1u, nodes / pp);
  auto node_at = [&](std::uint32_t i) { return placement[std::min(i, nodes - 1)].node; };
  job.traffic.dp_share = 1.0;
  job.traffic.pp_share = 1.0;
  FlowRequest request;
  request.cluster = job.cluster;
  if (l.dp_bytes_per_node > 0.0 && per_stage > 1) {
    request.kind = FlowKind::DATA_PARALLEL;
    request.demand_Bps = l.dp_cap_Bps;
    for (std::uint32_t s = 0; s < pp; ++s) {
      for (std::uint32_t i = 0; i < per_stage; ++i) {
        request.from = node_at(s * per_stage + i);
        request.to = node_at(s * per_stage + (i + 1) % per_stage);
        job.traffic.dp_flows.push_back(open_flow(id, request));
      }
    }
  }
  if (l.pp_bytes_per_node > 0.0 && pp > 1) {
    request.kind = FlowKind::PIPELINE;
    request.demand_Bps = l.pp_cap_Bps;
    for (std::uint32_t s = 0; s + 1 < pp; ++s) {
      for (std::uint32_t i = 0; i < per_stage; ++i) {
        request.from = node_at(s * per_stage + i);
        request.to = node_at((s + 1) * per_stage + i);
        job.traffic.pp_flows.push_back(open_flow(id, request));
      }
    }
  }
  job.traffic.open = true;
  if (rates_known(job.traffic)) {
    update_rate(id, job); // no sharing to wait for: the job resumes at the pace its flows already have
  }
}

bool TrainingTraffic::rates_known(const TrafficState& t) const {
  for (const auto* flows : {&t.dp_flows, &t.pp_flows}) {
    for (FlowId flow : *flows) {
      if (!fabric_->rate_known(flow)) {
        return false;
      }
    }
  }
  return true;
}

FlowId TrainingTraffic::open_flow(model::JobId id, const FlowRequest& request) {
  FlowId flow = fabric_->open(request);
  flows_.emplace(flow, FlowInfo{id, request});
  return flow;
}

void TrainingTraffic::on_compute_end(JobRuntime& job) {
  TrafficState& t = job.traffic;
  if (!t.open) {
    return;
  }
  for (const auto* flows : {&t.dp_flows, &t.pp_flows}) {
    for (FlowId flow : *flows) {
      fabric_->close(flow);
      flows_.erase(flow);
    }
  }
  t.dp_flows.clear();
  t.pp_flows.clear();
  t.open = false;
}

void TrainingTraffic::on_rates_changed() {
  if (!fluid_) {
    return;
  }
  std::vector<model::JobId> jobs;
  for (FlowId flow : fabric_->take_changed()) {
    if (auto it = flows_.find(flow); it != flows_.end()) {
      jobs.push_back(it->second.job);
    }
  }
  std::sort(jobs.begin(), jobs.end());
  jobs.erase(std::unique(jobs.begin(), jobs.end()), jobs.end());
  for (model::JobId id : jobs) {
    JobRuntime* job = table_.find(id);
    ACME_ASSERT(job != nullptr && job->traffic.open, "flows on the fabric belong to computing jobs");
    update_rate(id, *job);
  }
}

double TrainingTraffic::share(const std::vector<FlowId>& flows, double cap_Bps) const {
  double least = 1.0;
  for (FlowId flow : flows) {
    least = std::min(least, fabric_->achieved_Bps(flow) / cap_Bps);
  }
  return least >= FULL_SHARE ? 1.0 : least;
}

void TrainingTraffic::update_rate(model::JobId id, JobRuntime& job) {
  const model::ParallelLayout& l = job.traffic.layout;
  TrafficState& t = job.traffic;
  t.dp_share = share(t.dp_flows, l.dp_cap_Bps);
  t.pp_share = share(t.pp_flows, l.pp_cap_Bps);
  double rate = l.progress_rate(t.dp_share, t.pp_share);
  if (std::abs(rate - job.checkpoint.rate) > RATE_TOLERANCE * job.checkpoint.rate) {
    checkpoint_.set_progress_rate(id, job, rate);
  }
}

void TrainingTraffic::average_flows(model::ClusterId cluster, FabricUsage& usage) const {
  const model::ClusterView& view = table_.cluster(cluster).view;
  for (const auto& [flow, info] : flows_) {
    const FlowRequest& r = info.request;
    if (r.cluster != cluster) {
      continue;
    }
    const TrafficState& t = table_.jobs.at(info.job).traffic;
    bool pipeline = r.kind == FlowKind::PIPELINE;
    double average =
        pipeline ? t.layout.pp_average_Bps(t.dp_share, t.pp_share) : t.layout.dp_average_Bps(t.dp_share, t.pp_share);
    double excess = std::max(0.0, fabric_->achieved_Bps(flow) - average);
    usage.nic_up_Bps[model::to_index(r.from)] -= excess;
    usage.nic_down_Bps[model::to_index(r.to)] -= excess;
    std::uint32_t from_leaf = view.leaf_of(r.from);
    std::uint32_t to_leaf = view.leaf_of(r.to);
    if (from_leaf != to_leaf) {
      usage.uplink_up_Bps[from_leaf] -= excess;
      usage.uplink_down_Bps[to_leaf] -= excess;
    }
  }
}

FabricSample TrainingTraffic::sample(model::ClusterId cluster) const {
  FabricUsage usage = fabric_->usage(cluster);
  average_flows(cluster, usage);
  FabricSample s;
  std::vector<double> util;
  double sum = 0.0;
  for (std::size_t n = 0; n < usage.nic_up_Bps.size(); ++n) {
    double u = std::max(0.0, std::max(usage.nic_up_Bps[n], usage.nic_down_Bps[n]) / usage.nic_Bps);
    util.push_back(u);
    sum += u;
    s.nics_idle += u < IDLE_UTIL ? 1 : 0;
    s.nics_above_quarter += u > QUARTER ? 1 : 0;
  }
  s.nics = static_cast<std::uint32_t>(util.size());
  if (!util.empty()) {
    std::sort(util.begin(), util.end());
    s.nic_util_mean = sum / static_cast<double>(util.size());
    s.nic_util_p95 = percentile(util, P95);
  }
  double load = 0.0;
  double capacity = 0.0;
  for (std::size_t leaf = 0; leaf < usage.uplink_Bps.size(); ++leaf) {
    load += std::max(0.0, usage.uplink_up_Bps[leaf]) + std::max(0.0, usage.uplink_down_Bps[leaf]);
    capacity += 2.0 * usage.uplink_Bps[leaf];
  }
  s.spine_util = capacity > 0.0 ? load / capacity : 0.0;
  return s;
}

} // namespace acme::core
