#pragma once

#include <cstdint>
#include <vector>

#include "sim/core/engine_event.hpp"
#include "sim/model/ids.hpp"

namespace acme::core {

/// What a training flow carries (a node has at most one flow of each kind leaving it).
enum class FlowKind : std::uint8_t {
  DATA_PARALLEL, ///< to the next node of its data-parallel ring (gradient all-reduce)
  PIPELINE,      ///< to the same place in the next pipeline stage (activations and their gradients)
};

/// One long-lived training flow between two nodes of a cluster, capped at the job's demand (the part
/// of the node's IB bandwidth its transfers use while they run).
struct FlowRequest {
  model::ClusterId cluster{};
  model::NodeId from{};
  model::NodeId to{};
  FlowKind kind = FlowKind::DATA_PARALLEL;
  double demand_Bps = 0.0;
};

/// What a cluster's links carry at one instant, as the fabric shares them (training flows at the
/// rates they hold while they run).
struct FabricUsage {
  double nic_Bps = 0.0;             ///< each node's compute NIC bandwidth (all its compute NICs)
  std::vector<double> nic_up_Bps;   ///< per node: leaving it
  std::vector<double> nic_down_Bps; ///< per node: arriving
  std::vector<double> uplink_Bps;   ///< per leaf: capacity of its uplinks now (each direction)
  std::vector<double> uplink_up_Bps;
  std::vector<double> uplink_down_Bps;
};

/// A cluster's InfiniBand use at one instant, averaged over training iterations (the time series'
/// network columns).
struct FabricSample {
  std::uint32_t nics = 0;               ///< compute NICs (bonded per node: one per node)
  std::uint32_t nics_idle = 0;          ///< carrying nothing
  std::uint32_t nics_above_quarter = 0; ///< above 25% of their bandwidth
  double nic_util_mean = 0.0;           ///< 0..1, the busier direction of each NIC
  double nic_util_p95 = 0.0;
  double spine_util = 0.0; ///< leaf-to-spine links: traffic over capacity, both directions
};

/// The fabric as the network model sees it: training flows whose rates the fabric's sharing decides
/// (with every storage transfer on the same links), leaf uplinks that can lose capacity, and samples
/// of NIC and spine use. Rates are re-read only when the set of flows, transfers or capacities
/// changes; then a FlowRatesChanged event is queued at that time if any flow's rate moved. A flow
/// holds its rate continuously: iterations' bursts are not interleaved with other traffic.
class FabricService {
public:
  virtual ~FabricService() = default;
  /// Starts a flow; its id is never 0. Its rate is known after the next FlowRatesChanged.
  virtual FlowId open(const FlowRequest& request) = 0;
  /// Ends a flow.
  virtual void close(FlowId flow) = 0;
  /// The flow's rate as of the last sharing (0 before its first).
  virtual double achieved_Bps(FlowId flow) const = 0;
  /// Whether the flow's rate is already known, with no sharing left to solve (no FlowRatesChanged will
  /// report it): a flow no link can bind runs at its demand from the instant it opens.
  virtual bool rate_known(FlowId flow) const = 0;
  /// The flows whose rate changed since the last call, in the order they were opened.
  virtual std::vector<FlowId> take_changed() = 0;
  /// `down` of the leaf's uplinks have failed: their capacity is gone until set back.
  virtual void set_uplinks_down(model::ClusterId cluster, std::uint32_t leaf, std::uint32_t down) = 0;
  /// What the links carry now.
  virtual FabricUsage usage(model::ClusterId cluster) const = 0;
};

} // namespace acme::core
