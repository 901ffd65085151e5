#include "tests/unit/core/core_fakes.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

namespace acme::test {
namespace {
const char* state_name(model::JobState s) {
  switch (s) {
  case model::JobState::COMPLETED:
    return "COMPLETED";
  case model::JobState::CANCELLED:
    return "CANCELLED";
  case model::JobState::FAILED:
    return "FAILED";
  case model::JobState::TIMEOUT:
    return "TIMEOUT";
  case model::JobState::NODE_FAIL:
    return "NODE_FAIL";
  }
  return "?";
}
std::string id_text(model::JobId id) {
  return std::to_string(model::to_index(id));
}
} // namespace

void FakeTimer::schedule(double time_s, core::EngineEvent event) {
  REQUIRE(time_s >= now_s_);
  scheduled.push_back({time_s, event});
}

FakeTimer::Scheduled FakeTimer::pop() {
  REQUIRE(!scheduled.empty());
  auto it = std::min_element(scheduled.begin(), scheduled.end(),
                             [](const Scheduled& a, const Scheduled& b) { return a.time_s < b.time_s; });
  Scheduled s = *it;
  scheduled.erase(it);
  now_s_ = s.time_s;
  return s;
}

void FakeTimer::fail_missing() {
  FAIL("no event of that type was scheduled");
}

core::TransferId FakeIo::start(const core::TransferRequest& request) {
  started[next_id_] = request;
  return next_id_++;
}

void FakeIo::widen_nic(model::ClusterId, model::NodeId node, std::uint32_t nodes) {
  widened.emplace_back(model::to_index(node), nodes);
}

void FakeIo::set_node_power(model::ClusterId, model::NodeId node, bool on) {
  power.emplace_back(model::to_index(node), on);
}

core::TransferDone FakeIo::done(core::TransferId id, double duration_s) const {
  return core::TransferDone{id, started.at(id).owner, true, duration_s};
}

core::FlowId FakeFabric::open(const core::FlowRequest& request) {
  open_flows[next_id_] = request;
  rates_[next_id_] = park ? request.demand_Bps : 0.0;
  if (park) {
    known_.insert(next_id_);
  }
  return next_id_++;
}

bool FakeFabric::rate_known(core::FlowId flow) const {
  return known_.count(flow) > 0;
}

void FakeFabric::close(core::FlowId flow) {
  REQUIRE(open_flows.erase(flow) == 1);
  rates_.erase(flow);
  closed.push_back(flow);
}

double FakeFabric::achieved_Bps(core::FlowId flow) const {
  auto it = rates_.find(flow);
  return it == rates_.end() ? 0.0 : it->second;
}

std::vector<core::FlowId> FakeFabric::take_changed() {
  std::vector<core::FlowId> out;
  out.swap(changed_);
  return out;
}

void FakeFabric::set_uplinks_down(model::ClusterId, std::uint32_t leaf, std::uint32_t down) {
  uplinks_down.emplace_back(leaf, down);
}

core::FabricUsage FakeFabric::usage(model::ClusterId) const {
  return {};
}

void FakeFabric::set_rate(core::FlowId flow, double rate_Bps) {
  REQUIRE(open_flows.count(flow) == 1);
  rates_[flow] = rate_Bps;
  changed_.push_back(flow);
}

void FakeFabric::grant_demands() {
  for (const auto& [flow, request] : open_flows) {
    set_rate(flow, request.demand_Bps);
  }
}

void FakeControl::finish(model::JobId id, core::JobRuntime& job, model::JobState state, model::EndCause) {
  calls.push_back("finish " + id_text(id) + " " + state_name(state));
  core::ClusterRuntime& cluster = table_.cluster_of(job);
  if (cluster.view.job(id).phase == model::JobPhase::RUNNING) {
    cluster.view.stop_job(id);
  }
  cluster.view.remove_job(id);
  table_.jobs.erase(id);
}

void FakeControl::end_attempt(model::JobId id, core::JobRuntime& job, model::JobPhase next, model::JobState state,
                              model::EndCause) {
  calls.push_back("end " + id_text(id) + (next == model::JobPhase::HELD ? " HELD " : " QUEUED ") + state_name(state));
  core::ClusterRuntime& cluster = table_.cluster_of(job);
  for (const auto& share : cluster.view.job(id).placement) {
    auto& on_node = cluster.jobs_on_node[model::to_index(share.node)];
    on_node.erase(std::remove(on_node.begin(), on_node.end(), id), on_node.end());
  }
  if (next == model::JobPhase::HELD) {
    cluster.view.hold_job(id);
  } else {
    cluster.view.stop_job(id);
  }
  job.enter(core::JobStage::WAITING, timer_.now_s());
}

void FakeControl::requeue(model::JobId id) {
  calls.push_back("requeue " + id_text(id));
  table_.cluster_of(table_.jobs.at(id)).view.requeue_job(id);
}

void FakeControl::relaunch(model::JobId id, core::JobRuntime& job, const std::vector<model::NodeSwap>& /*swaps*/) {
  calls.push_back("relaunch " + id_text(id));
  ++job.accounting.attempts;
}

void FakeControl::preempt_for_restart(model::JobId id) {
  calls.push_back("preempt " + id_text(id));
  core::JobRuntime& job = table_.jobs.at(id);
  end_attempt(id, job, model::JobPhase::QUEUED, model::JobState::CANCELLED, model::EndCause::PREEMPTED);
}

core::JobTable one_cluster(std::uint32_t nodes, std::uint32_t nodes_per_leaf) {
  model::ClusterShape shape;
  shape.name = "test";
  shape.nodes = nodes;
  shape.gpus_per_node = 8;
  if (nodes_per_leaf > 0) {
    for (std::uint32_t n = 0; n < nodes; ++n) {
      shape.leaf_of_node.push_back(n / nodes_per_leaf);
    }
    shape.leaves = (nodes + nodes_per_leaf - 1) / nodes_per_leaf;
  }
  core::JobTable table;
  core::ClusterRuntime cluster{model::ClusterView(shape)};
  cluster.jobs_on_node.resize(nodes);
  cluster.storage_bw_Bps = 100e9;
  cluster.storage_nic_bw_Bps = 25e9;
  table.clusters.push_back(std::move(cluster));
  return table;
}

model::JobSpec pretrain_job(std::uint64_t id, std::uint32_t nodes, double duration_s, double params) {
  model::JobSpec spec;
  spec.id = model::JobId{id};
  spec.type = model::JobType::PRETRAIN;
  spec.gpus = 8 * nodes;
  spec.duration_s = duration_s;
  spec.model_params = params;
  return spec;
}

core::JobRuntime& run_job(core::JobTable& table, const model::JobSpec& spec, std::uint32_t first_node) {
  core::ClusterRuntime& cluster = table.clusters.at(0);
  cluster.view.add_job(spec);
  model::Placement placement;
  for (std::uint32_t n = 0; n < spec.gpus / 8; ++n) {
    placement.push_back(model::NodeShare{model::NodeId{first_node + n}, 8, 0, 0});
    cluster.jobs_on_node[first_node + n].push_back(spec.id);
  }
  cluster.view.start_job(spec.id, placement);
  core::JobRuntime& job = table.jobs[spec.id];
  job.nodes = static_cast<std::uint32_t>(placement.size());
  job.leaves = 1;
  job.allocated_gpus = spec.gpu_share();
  return job;
}

} // namespace acme::test
