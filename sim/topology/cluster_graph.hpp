#pragma once

#include <boost/graph/adjacency_list.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "sim/config/config.hpp"
#include "sim/model/ids.hpp"

namespace acme::topology {

enum class VertexKind : std::uint8_t {
  NODE,         ///< a GPU node (one SimGrid host with its cores; NVLink inside)
  NODE_STORAGE, ///< a node's dedicated storage NIC endpoint (Kalos), on the storage network
  LEAF,         ///< leaf (top-of-rack) switch
  SPINE,        ///< the spine layer of a cluster (aggregated: ECMP spreads over all spines)
  STORAGE_NET,  ///< switch of a dedicated storage network
  STORAGE,      ///< the cluster's remote storage system
};

enum class LinkKind : std::uint8_t { NIC, STORAGE_NIC, LEAF_UPLINK, STORAGE_PORT, BACKBONE };

struct VertexProps {
  VertexKind kind = VertexKind::NODE;
  std::string name;
  model::ClusterId cluster{};
  std::uint32_t index = 0; ///< node index for NODE/NODE_STORAGE, leaf index for LEAF
};

struct EdgeProps {
  LinkKind kind = LinkKind::NIC;
  std::string name;
  double bw_Bps = 0.0;
  double latency_s = 0.0;
};

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, VertexProps, EdgeProps>;
using Vertex = Graph::vertex_descriptor;

/// Where a cluster's parts sit in the graph.
struct ClusterVertices {
  std::string name;          ///< the cluster's name in the config
  std::string platform_name; ///< "c<index>": the prefix of every platform name (vertices, edges, zones)
  std::vector<Vertex> nodes;
  std::vector<Vertex> node_storage; ///< empty unless the cluster has dedicated storage NICs
  std::vector<Vertex> leaves;
  std::vector<std::uint32_t> leaf_of_node;
  Vertex spine{};
  Vertex storage{};
  bool has_storage_net = false;
  Vertex storage_net{};
  double storage_device_bw_Bps = 0.0; ///< the storage system's own limit (a link inside it)
  double storage_latency_s = 0.0;
  double nvlink_bw_Bps = 0.0;
  std::uint32_t cpu_cores_per_node = 0;
  std::uint32_t gpus_per_node = 0;
};

/// The datacenter as a graph: nodes, leaf switches, a spine per cluster, storage, the backbone
/// between clusters. Placement asks it which leaf a node is under; failures ask which nodes a
/// switch takes down; the engine builds the SimGrid platform from it.
class ClusterGraph {
public:
  explicit ClusterGraph(const config::Config& config);

  const Graph& graph() const { return graph_; }
  const std::vector<ClusterVertices>& clusters() const { return clusters_; }
  const ClusterVertices& cluster(model::ClusterId id) const { return clusters_.at(model::to_index(id)); }

  std::uint32_t leaf_of(model::ClusterId cluster, model::NodeId node) const;
  /// Nodes that lose connectivity when `switch_vertex` (a LEAF or SPINE) fails, in node order.
  std::vector<model::NodeId> nodes_under(Vertex switch_vertex) const;
  std::size_t count(VertexKind kind) const;

private:
  Vertex add_vertex(VertexKind kind, std::string name, model::ClusterId cluster, std::uint32_t index);
  void add_edge(Vertex a, Vertex b, LinkKind kind, std::string name, double bw_Bps, double latency_s);
  void add_cluster(const config::ClusterConfig& cfg, model::ClusterId id);

  Graph graph_;
  std::vector<ClusterVertices> clusters_;
};

} // namespace acme::topology
