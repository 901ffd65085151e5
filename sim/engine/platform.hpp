#pragma once

#include <simgrid/forward.h>

#include <memory>
#include <string>
#include <vector>

#include "sim/config/config.hpp"
#include "sim/engine/platform_summary.hpp"
#include "sim/model/ids.hpp"
#include "sim/topology/cluster_graph.hpp"

namespace acme::engine {

/// The SimGrid platform built from the topology graph. One per process (SimGrid's engine is a
/// singleton). Zones: root (full) > one full zone per cluster > a star zone per leaf switch (its
/// nodes), a star zone for the spine, one for the storage system and, where nodes have dedicated
/// storage NICs, one for the storage network (each node's storage endpoint is its own host there).
///
/// Under the fluid network model (`network.model: fluid`) every node also has two flow ports in its
/// leaf zone, one per kind of training flow (data parallel, pipeline): a host whose route is its own
/// port link, then the node's compute NIC. A port link carries the one flow leaving the node by that
/// port: its bandwidth caps the flow at its demand and its load is the flow's achieved rate. Links have
/// no latency there and sharing updates are lazy (see make_engine). Where a cluster's leaf uplinks can
/// never bind (every leaf's uplinks carry at least its nodes' NIC bandwidth, and no spine link fails),
/// the ports sit in one star zone of the cluster instead, whose routes leave the uplinks out: the flows
/// get the same max-min rates, but each job's flows form a system of their own that SimGrid solves
/// alone, where through the uplinks every flow of the cluster was coupled to every other (the fabric
/// adds the flows that cross leaves to the uplinks' use, SimgridFabric::usage).
class Platform {
public:
  Platform(const topology::ClusterGraph& graph, const config::Config& config);
  ~Platform();
  Platform(const Platform&) = delete;
  Platform& operator=(const Platform&) = delete;

  simgrid::s4u::Engine& get_engine() const { return *engine_; }
  simgrid::s4u::Host* node_host(model::ClusterId cluster, model::NodeId node) const;
  /// The host a node's storage traffic leaves from: its storage endpoint on Kalos-like clusters, the
  /// node itself otherwise.
  simgrid::s4u::Host* storage_endpoint(model::ClusterId cluster, model::NodeId node) const;
  /// The link that carries a node's storage traffic (its storage NIC, or its compute NIC).
  simgrid::s4u::SplitDuplexLink* storage_nic(model::ClusterId cluster, model::NodeId node) const;
  double storage_nic_bw_Bps(model::ClusterId cluster, model::NodeId node) const;
  simgrid::s4u::Host* storage_host(model::ClusterId cluster) const;

  bool fluid() const { return fluid_; }
  /// A node's compute NIC (all its compute NICs as one link).
  simgrid::s4u::SplitDuplexLink* compute_nic(model::ClusterId cluster, model::NodeId node) const;
  std::size_t node_count(model::ClusterId cluster) const;
  /// A leaf's uplinks to the spine layer (all of them as one link).
  simgrid::s4u::SplitDuplexLink* uplink(model::ClusterId cluster, std::uint32_t leaf) const;
  std::size_t leaf_count(model::ClusterId cluster) const;
  /// Fluid model: a node's flow port (`pipeline` false: data parallel) and its link.
  simgrid::s4u::Host* port_host(model::ClusterId cluster, model::NodeId node, bool pipeline) const;
  simgrid::s4u::SplitDuplexLink* port_link(model::ClusterId cluster, model::NodeId node, bool pipeline) const;
  /// Fluid model: whether the cluster's flow routes leave out the leaf uplinks (see the class comment).
  bool flows_bypass_uplinks(model::ClusterId cluster) const;
  std::uint32_t leaf_of(model::ClusterId cluster, model::NodeId node) const;

  /// Link names on the route between two hosts (for tests and diagnostics).
  static std::vector<std::string> route_names(const simgrid::s4u::Host* from, const simgrid::s4u::Host* to);
  const PlatformSummary& summary() const { return summary_; }

private:
  struct ClusterHosts {
    std::vector<simgrid::s4u::Host*> nodes;
    std::vector<simgrid::s4u::SplitDuplexLink*> nics; ///< compute NICs
    std::vector<simgrid::s4u::SplitDuplexLink*> uplinks;
    std::vector<simgrid::s4u::Host*> ports; ///< fluid: per node, data parallel then pipeline
    std::vector<simgrid::s4u::SplitDuplexLink*> port_links;
    std::vector<simgrid::s4u::Host*> endpoints;
    std::vector<simgrid::s4u::SplitDuplexLink*> storage_nics;
    std::vector<double> storage_nic_bw_Bps;
    simgrid::s4u::Host* storage = nullptr;
    std::vector<std::uint32_t> leaf_of_node;
    bool ports_bypass_uplinks = false;
  };
  struct LeafZones {
    std::vector<simgrid::s4u::NetZone*> zones;
    std::vector<simgrid::kernel::routing::NetPoint*> gateways;
    std::vector<simgrid::s4u::SplitDuplexLink*> uplinks;
  };
  struct StorageZone {
    simgrid::s4u::NetZone* zone = nullptr;
    simgrid::kernel::routing::NetPoint* gateway = nullptr;
    simgrid::s4u::SplitDuplexLink* port = nullptr;
  };
  void build_cluster(const topology::ClusterGraph& graph, const topology::ClusterVertices& cv,
                     simgrid::s4u::NetZone* root);
  void add_nodes(const topology::ClusterGraph& graph, const topology::ClusterVertices& cv, const LeafZones& leaves,
                 simgrid::s4u::NetZone* ports_zone, ClusterHosts& hosts) const;
  /// Whether every leaf's uplinks carry at least the NIC bandwidth of its nodes.
  static bool uplinks_never_bind(const topology::ClusterGraph& graph, const topology::ClusterVertices& cv);
  void add_ports(simgrid::s4u::NetZone* zone, const std::string& node, simgrid::s4u::SplitDuplexLink* nic,
                 ClusterHosts& hosts) const;
  StorageZone add_storage(const topology::ClusterGraph& graph, const topology::ClusterVertices& cv,
                          simgrid::s4u::NetZone* cluster_zone, ClusterHosts& hosts) const;
  /// A link of the graph (no latency under the fluid model).
  simgrid::s4u::SplitDuplexLink* make_link(simgrid::s4u::NetZone* zone, const topology::EdgeProps& e) const;
  simgrid::s4u::SplitDuplexLink* make_link(simgrid::s4u::NetZone* zone, const std::string& name, double bw_Bps,
                                           double latency_s) const;

  bool fluid_;
  bool spine_links_fail_ = false; ///< failures.spine_link has a rate: uplinks may lose capacity
  std::unique_ptr<simgrid::s4u::Engine> engine_;
  std::vector<ClusterHosts> clusters_;
  std::vector<simgrid::kernel::routing::NetPoint*> cluster_gateways_;
  std::vector<simgrid::s4u::NetZone*> cluster_zones_;
  PlatformSummary summary_;
};

} // namespace acme::engine
