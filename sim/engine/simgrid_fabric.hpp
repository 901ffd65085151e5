#pragma once

#include <simgrid/forward.h>

#include <cstdint>
#include <functional>
#include <map>
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
  std::vector<core::FlowId> take_changed() override;
  void set_uplinks_down(model::ClusterId cluster, std::uint32_t leaf, std::uint32_t down) override;
  core::FabricUsage usage(model::ClusterId cluster) const override;

  /// Something else on the fabric changed (a storage transfer started, ended or was cancelled).
  void touch();
  /// Releases ended activities (at the start of each instant, outside SimGrid callbacks).
  void collect_garbage();

private:
  struct Flow {
    simgrid::s4u::CommPtr comm;
    simgrid::s4u::Link* port = nullptr; ///< the port link's direction the flow leaves by
    double achieved_Bps = 0.0;
    bool read = false; ///< its rate was read once
    model::ClusterId cluster{};
    std::uint32_t from_leaf = 0;
    std::uint32_t to_leaf = 0;
  };
  void on_activity_end(const simgrid::s4u::Activity& activity);
  void read_rates();

  Platform& platform_;
  Post post_;
  std::vector<std::vector<std::uint32_t>> uplinks_per_leaf_; ///< per cluster, per leaf (its links)
  std::vector<std::vector<double>> uplink_bw_Bps_;           ///< per cluster, per leaf: all links up
  core::FlowId next_id_ = 1;
  std::map<core::FlowId, Flow> flows_; ///< ordered: rates are read and reported in opening order
  std::vector<core::FlowId> changed_;
  simgrid::s4u::ExecPtr barrier_;
  std::uint64_t version_ = 0;         ///< counts changes
  std::uint64_t barrier_version_ = 0; ///< the changes the pending barrier covers
  std::unordered_map<const simgrid::s4u::Activity*, simgrid::s4u::ActivityPtr> ending_;
  std::vector<simgrid::s4u::ActivityPtr> graveyard_;
};

} // namespace acme::engine
