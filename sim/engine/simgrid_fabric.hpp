#pragma once

#include <simgrid/forward.h>

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>
#include <vector>

#include "sim/core/fabric_service.hpp"
#include "sim/engine/platform.hpp"

namespace acme::engine {

/// The fabric over SimGrid. A training flow is one communication from a node's flow port to the
/// peer node's port of the same kind, as long as the run (a payload it never finishes), capped at its
/// demand by the port's link; SimGrid shares NICs, uplinks and the storage path among the flows and
/// every storage transfer. After anything on the fabric changes (a flow opens or closes, a transfer
/// starts or ends, a link loses capacity) SimGrid must solve the sharing before the rates can be read:
/// the fabric starts a zero-work execution ("barrier"), which SimGrid completes at the same simulated
/// time right after solving, and reads each flow's rate (its port link's load) there; when a rate
/// moved, it posts FlowRatesChanged to the event loop. Without flows (model `none`) it only changes
/// uplink capacities. Where the flows' routes leave out the uplinks (Platform::flows_bypass_uplinks),
/// usage() adds the flows that cross leaves to the uplinks' load.
///
/// Parked flows: where the routes leave out the uplinks, a flow's route is its port, its source's NIC
/// (up) and its destination's NIC (down). While the flows through each of those two NIC directions
/// demand no more than the NIC carries, and no storage transfer uses either NIC, no link of the route
/// can bind: max-min sharing gives the flow exactly its demand, and leaving it out of the sharing moves
/// no other flow's rate. Such a flow is kept parked, outside SimGrid, at its demand; it is put on SimGrid
/// (as above) the moment a transfer starts on one of its NICs or the flows there outgrow the NIC, and
/// stays there until it closes. Rates are those of sharing every flow; only the cost differs.
class SimgridFabric final : public core::FabricService {
public:
  /// Runs in SimGrid's maestro: queues an event on the loop at SimGrid's clock.
  using Post = std::function<void(const core::EngineEvent& event)>;

  SimgridFabric(Platform& platform, const config::Config& config, Post post);
  ~SimgridFabric() override;
  SimgridFabric(const SimgridFabric&) = delete;
  SimgridFabric& operator=(const SimgridFabric&) = delete;

  core::FlowId open(const core::FlowRequest& request) override;
  void close(core::FlowId flow) override;
  double achieved_Bps(core::FlowId flow) const override;
  bool rate_known(core::FlowId flow) const override;
  std::vector<core::FlowId> take_changed() override;
  void set_uplinks_down(model::ClusterId cluster, std::uint32_t leaf, std::uint32_t down) override;
  core::FabricUsage usage(model::ClusterId cluster) const override;

  /// A storage transfer through `nodes` started (+1) or ended or was cancelled (-1), or one of its parts
  /// arrived before the others (0: the flows through that node are re-read at the next change).
  void transfer_changed(model::ClusterId cluster, const std::vector<model::NodeId>& nodes, int delta);
  /// Releases ended activities (at the start of each instant, outside SimGrid callbacks).
  void collect_garbage();

private:
  struct Flow {
    simgrid::s4u::CommPtr comm; ///< null while parked
    double demand_Bps = 0.0;
    simgrid::s4u::Link* port = nullptr; ///< the port link's direction the flow leaves by
    double achieved_Bps = 0.0;
    bool read = false; ///< its rate was read once
    model::ClusterId cluster{};
    std::uint32_t from = 0; ///< nodes
    std::uint32_t to = 0;
    std::uint32_t from_leaf = 0;
    std::uint32_t to_leaf = 0;
    bool pipeline = false; ///< which of the nodes' ports it uses
  };
  /// What changed in a cluster since its flows' rates were last read. Where the flows bypass the
  /// uplinks, a flow's rate depends only on the links of its nodes' NICs: the flows that may have moved
  /// are those reached from the dirty nodes through shared NICs and, where storage traffic takes the
  /// compute NICs, through the storage system (every node with a transfer under way).
  struct ClusterState {
    bool bypass = false;         ///< Platform::flows_bypass_uplinks
    bool storage_on_nic = false; ///< storage transfers take the compute NICs
    bool all_dirty = false;      ///< re-read every flow of the cluster
    bool storage_dirty = false;
    std::vector<std::uint32_t> dirty_nodes;
    double nic_Bps = 0.0;                            ///< a node's compute NIC, each direction
    std::vector<std::vector<core::FlowId>> flows_at; ///< per node: flows leaving or entering it
    std::vector<double> demand_up_Bps;               ///< per node: flows leaving it, summed demands
    std::vector<double> demand_down_Bps;             ///< per node: flows entering it
    std::vector<std::uint32_t> transfers_at;         ///< per node: storage transfers under way
    std::set<std::uint32_t> transfer_nodes;          ///< nodes with transfers_at > 0
    std::vector<char> is_dirty;                      ///< per node: in dirty_nodes
  };
  void on_activity_end(const simgrid::s4u::Activity& activity);
  void read_rates();
  /// Something changed on the fabric: a barrier re-reads the rates.
  void touch();
  void mark_node(model::ClusterId cluster, std::uint32_t node);
  /// The flows of `c` whose rates may have moved since the last read.
  std::vector<core::FlowId> flows_to_read(const ClusterState& c) const;
  void unlink_flow(const Flow& flow, core::FlowId id);
  /// Whether a flow from `from` to `to` (already counted in the demands) may stay parked.
  bool may_park(const ClusterState& c, std::uint32_t from, std::uint32_t to) const;
  /// Puts a parked flow on SimGrid (its rate is read at the next barrier).
  void materialize(Flow& flow);
  /// Puts the parked flows through `node` on SimGrid.
  void materialize_at(model::ClusterId cluster, std::uint32_t node);
  /// Adds what SimGrid does not carry to `u` (sized): parked flows on their NICs, flows that bypass the
  /// uplinks on their leaves' uplinks. Returns, per node, whether SimGrid carries load on its NIC.
  std::vector<char> add_flow_loads(model::ClusterId cluster, core::FabricUsage& u) const;

  Platform& platform_;
  Post post_;
  std::vector<std::vector<std::uint32_t>> uplinks_per_leaf_; ///< per cluster, per leaf (its links)
  std::vector<std::vector<double>> uplink_bw_Bps_;           ///< per cluster, per leaf: all links up
  core::FlowId next_id_ = 1;
  std::size_t live_flows_ = 0;         ///< flows on SimGrid (not parked)
  std::map<core::FlowId, Flow> flows_; ///< ordered: rates are read and reported in opening order
  std::vector<core::FlowId> changed_;
  simgrid::s4u::ExecPtr barrier_;
  std::uint64_t version_ = 0;         ///< counts changes
  std::uint64_t barrier_version_ = 0; ///< the changes the pending barrier covers
  std::unordered_map<const simgrid::s4u::Activity*, simgrid::s4u::ActivityPtr> ending_;
  std::vector<ClusterState> clusters_;
  std::vector<simgrid::s4u::ActivityPtr> graveyard_;
};

} // namespace acme::engine
