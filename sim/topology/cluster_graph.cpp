#include "sim/topology/cluster_graph.hpp"

#include <algorithm>
#include <cstdio>

#include "sim/model/assert.hpp"

namespace acme::topology {
namespace {

std::string numbered(const std::string& prefix, const char* kind, std::uint32_t i) {
  constexpr std::size_t BUFFER = 16;
  char digits[BUFFER];
  std::snprintf(digits, sizeof digits, "%04u", i);
  return prefix + "-" + kind + digits;
}

} // namespace

ClusterGraph::ClusterGraph(const config::Config& config) {
  for (std::size_t c = 0; c < config.clusters.size(); ++c) {
    add_cluster(config.clusters[c], model::ClusterId{static_cast<std::uint16_t>(c)});
  }
  // The clusters' spine layers are joined in a chain by backbone links.
  for (std::size_t c = 1; c < clusters_.size(); ++c) {
    add_edge(clusters_[c - 1].spine, clusters_[c].spine, LinkKind::BACKBONE,
             "backbone-" + clusters_[c - 1].platform_name + "-" + clusters_[c].platform_name,
             config.interconnect.bw_Bps, config.interconnect.latency_s);
  }
}

Vertex ClusterGraph::add_vertex(VertexKind kind, std::string name, model::ClusterId cluster, std::uint32_t index) {
  return boost::add_vertex(VertexProps{kind, std::move(name), cluster, index}, graph_);
}

void ClusterGraph::add_edge(Vertex a, Vertex b, LinkKind kind, std::string name, double bw_Bps, double latency_s) {
  boost::add_edge(a, b, EdgeProps{kind, std::move(name), bw_Bps, latency_s}, graph_);
}

void ClusterGraph::add_cluster(const config::ClusterConfig& cfg, model::ClusterId id) {
  ClusterVertices cv;
  cv.name = cfg.name;
  // Platform names are made of the cluster's index, never of the user's name: "c0-spine" cannot clash
  // with a cluster called "c0-spine", nor with the root zone.
  cv.platform_name = "c" + std::to_string(model::to_index(id));
  const std::string& prefix = cv.platform_name;
  cv.nvlink_bw_Bps = cfg.nvlink_bw_Bps;
  cv.cpu_cores_per_node = cfg.cpu_cores_per_node;
  cv.gpus_per_node = cfg.gpus_per_node;
  cv.storage_device_bw_Bps = cfg.storage.bw_Bps;
  cv.storage_latency_s = cfg.storage.latency_s;
  const auto& net = cfg.network;
  double lat = net.link_latency_s;
  cv.spine = add_vertex(VertexKind::SPINE, prefix + "-spine", id, 0);
  std::uint32_t leaves = (cfg.nodes + net.nodes_per_leaf - 1) / net.nodes_per_leaf;
  for (std::uint32_t l = 0; l < leaves; ++l) {
    Vertex leaf = add_vertex(VertexKind::LEAF, numbered(prefix, "leaf", l), id, l);
    cv.leaves.push_back(leaf);
    add_edge(leaf, cv.spine, LinkKind::LEAF_UPLINK, numbered(prefix, "leaf", l) + "-up", net.leaf_uplink_bw_Bps, lat);
  }
  cv.storage = add_vertex(VertexKind::STORAGE, prefix + "-storage", id, 0);
  cv.has_storage_net = net.storage_nics_per_node > 0;
  if (cv.has_storage_net) {
    cv.storage_net = add_vertex(VertexKind::STORAGE_NET, prefix + "-storage-net", id, 0);
    add_edge(cv.storage_net, cv.storage, LinkKind::STORAGE_PORT, prefix + "-storage-port", cfg.storage.port_bw_Bps,
             lat);
  } else {
    add_edge(cv.spine, cv.storage, LinkKind::STORAGE_PORT, prefix + "-storage-port", cfg.storage.port_bw_Bps, lat);
  }
  for (std::uint32_t n = 0; n < cfg.nodes; ++n) {
    std::uint32_t leaf = n / net.nodes_per_leaf;
    std::string name = numbered(prefix, "n", n);
    Vertex node = add_vertex(VertexKind::NODE, name, id, n);
    cv.nodes.push_back(node);
    cv.leaf_of_node.push_back(leaf);
    // Several NICs of one node are one link of their summed bandwidth (the fluid model of bonding).
    add_edge(node, cv.leaves[leaf], LinkKind::NIC, name + "-nic", net.nics_per_node * net.nic_bw_Bps, lat);
    if (cv.has_storage_net) {
      Vertex stor = add_vertex(VertexKind::NODE_STORAGE, name + "-stor", id, n);
      cv.node_storage.push_back(stor);
      add_edge(stor, cv.storage_net, LinkKind::STORAGE_NIC, name + "-stor-nic",
               net.storage_nics_per_node * net.storage_nic_bw_Bps, lat);
    }
  }
  clusters_.push_back(std::move(cv));
}

std::uint32_t ClusterGraph::leaf_of(model::ClusterId cluster, model::NodeId node) const {
  return this->cluster(cluster).leaf_of_node.at(model::to_index(node));
}

std::vector<model::NodeId> ClusterGraph::nodes_under(Vertex switch_vertex) const {
  const VertexProps& sw = graph_[switch_vertex];
  ACME_ASSERT(sw.kind == VertexKind::LEAF || sw.kind == VertexKind::SPINE, "nodes_under takes a switch");
  std::vector<model::NodeId> out;
  if (sw.kind == VertexKind::SPINE) {
    // Without its spine a cluster's leaves cannot reach each other nor the storage: every node is cut off.
    for (Vertex v : clusters_.at(model::to_index(sw.cluster)).nodes) {
      out.push_back(model::NodeId{graph_[v].index});
    }
    return out;
  }
  for (auto [it, end] = boost::adjacent_vertices(switch_vertex, graph_); it != end; ++it) {
    if (graph_[*it].kind == VertexKind::NODE) {
      out.push_back(model::NodeId{graph_[*it].index});
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::size_t ClusterGraph::count(VertexKind kind) const {
  std::size_t n = 0;
  for (auto [it, end] = boost::vertices(graph_); it != end; ++it) {
    n += graph_[*it].kind == kind ? 1 : 0;
  }
  return n;
}

} // namespace acme::topology
