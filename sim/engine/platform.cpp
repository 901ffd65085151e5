#include "sim/engine/platform.hpp"

#include <simgrid/s4u.hpp>
#include <xbt/log.h>

#include <cstdlib>

#include "sim/config/faults.hpp"
#include "sim/model/assert.hpp"

namespace acme::engine {
namespace sg4 = simgrid::s4u;
using NetPoint = simgrid::kernel::routing::NetPoint;
using Direction = sg4::LinkInRoute::Direction;

namespace {

constexpr double HOST_SPEED_FLOPS = 1e9;     // hosts run no computations: job progress is arithmetic
constexpr double NO_TCP_WINDOW_LIMIT = 1e12; // CM02 caps flows at gamma / (2 x latency); disable it
constexpr double PORT_BW_Bps = 1e15;         // a flow port's link until a flow sets its cap: never a limit

std::unique_ptr<sg4::Engine> make_engine(bool fluid) {
  std::vector<std::string> args{"acme-sim"};
  const char* log = std::getenv("ACME_SIMGRID_LOG");
  args.emplace_back(std::string("--log=root.thres:") + (log != nullptr ? log : "critical"));
  std::vector<char*> argv;
  for (auto& a : args) {
    argv.push_back(a.data());
  }
  argv.push_back(nullptr);
  int argc = static_cast<int>(args.size());
  auto engine = std::make_unique<sg4::Engine>(&argc, argv.data());
  // Bandwidth sharing without protocol factors (DESIGN §4): CM02, no cross traffic.
  sg4::Engine::set_config("network/model:CM02");
  sg4::Engine::set_config("network/crosstraffic:0");
  sg4::Engine::set_config("network/TCP-gamma", NO_TCP_WINDOW_LIMIT);
  // Full (not lazy) sharing updates: SimGrid 3.32's lazy mode lets flows from one host to several
  // star-zone endpoints skip sharing the endpoints' links (all but the first destination ran at the
  // full link rate each); tests/unit/engine checks that eight reads into any node share its NIC.
  // The bug is in how lazy mode activates flows after their latency; the fluid network model builds
  // links without latency, where lazy and full updates give the same rates (tests/unit/engine), and
  // needs lazy updates: full updates cost every long-lived flow ~0.1-0.2 us at every simulated instant.
  // Zero latency also makes CM02 share by plain max-min (it weighs flows by their route latency, TCP's
  // RTT unfairness, which InfiniBand's credit-based flow control does not have).
  sg4::Engine::set_config(fluid ? "network/optim:Lazy" : "network/optim:Full");
  return engine;
}

const topology::EdgeProps& edge_between(const topology::Graph& g, topology::Vertex a, topology::Vertex b) {
  auto [edge, found] = boost::edge(a, b, g);
  ACME_ASSERT(found, "the topology has the edge the platform needs");
  return g[edge];
}

/// A star zone under `parent` with a router as its gateway.
std::pair<sg4::NetZone*, NetPoint*> star_with_gateway(sg4::NetZone* parent, const std::string& name) {
  auto* zone = sg4::create_star_zone(name + "-zone");
  zone->set_parent(parent);
  NetPoint* gateway = zone->create_router(name);
  zone->add_route(gateway, nullptr, nullptr, nullptr, {}, true);
  return {zone, gateway};
}

} // namespace

sg4::SplitDuplexLink* Platform::make_link(sg4::NetZone* zone, const std::string& name, double bw_Bps,
                                          double latency_s) const {
  auto* link = zone->create_split_duplex_link(name, bw_Bps);
  link->set_latency(fluid_ ? 0.0 : latency_s);
  link->seal();
  return link;
}

sg4::SplitDuplexLink* Platform::make_link(sg4::NetZone* zone, const topology::EdgeProps& e) const {
  return make_link(zone, e.name, e.bw_Bps, e.latency_s);
}

Platform::Platform(const topology::ClusterGraph& graph, const config::Config& config)
    : fluid_(config.network.fluid())
    , spine_links_fail_(config.faults && config.faults->failures.enabled &&
                        config.faults->failures.spine_link_rate_per_link_day > 0.0)
    , engine_(make_engine(fluid_)) {
  auto* root = sg4::create_full_zone("acme");
  for (const auto& cv : graph.clusters()) {
    build_cluster(graph, cv, root);
  }
  // Backbone: a link between consecutive clusters; routes between any two follow the chain.
  const auto& g = graph.graph();
  const auto& cvs = graph.clusters();
  std::vector<sg4::SplitDuplexLink*> backbone;
  for (std::size_t c = 0; c + 1 < cvs.size(); ++c) {
    backbone.push_back(make_link(root, edge_between(g, cvs[c].spine, cvs[c + 1].spine)));
  }
  for (std::size_t a = 0; a < cvs.size(); ++a) {
    for (std::size_t b = a + 1; b < cvs.size(); ++b) {
      std::vector<sg4::LinkInRoute> hops;
      for (std::size_t c = a; c < b; ++c) {
        hops.emplace_back(backbone[c], Direction::UP);
      }
      root->add_route(cluster_zones_[a]->get_netpoint(), cluster_zones_[b]->get_netpoint(), cluster_gateways_[a],
                      cluster_gateways_[b], hops, true);
    }
  }
  root->seal();
  summary_.hosts = engine_->get_host_count();
  summary_.links = engine_->get_link_count();
  for (const auto& c : config.clusters) {
    summary_.clusters.push_back({c.name, c.nodes, c.total_gpus(),
                                 (c.nodes + c.network.nodes_per_leaf - 1) / c.network.nodes_per_leaf,
                                 c.storage.bw_Bps});
    summary_.total_gpus += c.total_gpus();
  }
}

Platform::~Platform() = default;

void Platform::build_cluster(const topology::ClusterGraph& graph, const topology::ClusterVertices& cv,
                             sg4::NetZone* root) {
  const auto& g = graph.graph();
  auto* cluster_zone = sg4::create_full_zone(cv.platform_name);
  cluster_zone->set_parent(root);
  auto [spine_zone, spine] = star_with_gateway(cluster_zone, g[cv.spine].name);
  spine_zone->seal();
  LeafZones leaves;
  for (topology::Vertex leaf : cv.leaves) {
    auto [zone, gateway] = star_with_gateway(cluster_zone, g[leaf].name);
    leaves.zones.push_back(zone);
    leaves.gateways.push_back(gateway);
    leaves.uplinks.push_back(make_link(cluster_zone, edge_between(g, leaf, cv.spine)));
  }
  ClusterHosts hosts;
  hosts.uplinks = leaves.uplinks;
  hosts.leaf_of_node = cv.leaf_of_node;
  hosts.ports_bypass_uplinks = fluid_ && !spine_links_fail_ && uplinks_never_bind(graph, cv);
  sg4::NetZone* ports_zone = nullptr;
  if (hosts.ports_bypass_uplinks) {
    ports_zone = sg4::create_star_zone(cv.platform_name + "-ports");
    ports_zone->set_parent(cluster_zone);
  }
  add_nodes(graph, cv, leaves, ports_zone, hosts);
  if (ports_zone != nullptr) {
    ports_zone->seal();
  }
  StorageZone storage = add_storage(graph, cv, cluster_zone, hosts);
  for (std::size_t a = 0; a < leaves.zones.size(); ++a) {
    for (std::size_t b = a + 1; b < leaves.zones.size(); ++b) {
      cluster_zone->add_route(
          leaves.zones[a]->get_netpoint(), leaves.zones[b]->get_netpoint(), leaves.gateways[a], leaves.gateways[b],
          {sg4::LinkInRoute(leaves.uplinks[a], Direction::UP), sg4::LinkInRoute(leaves.uplinks[b], Direction::DOWN)},
          true);
    }
    cluster_zone->add_route(leaves.zones[a]->get_netpoint(), spine_zone->get_netpoint(), leaves.gateways[a], spine,
                            {sg4::LinkInRoute(leaves.uplinks[a], Direction::UP)}, true);
    if (!cv.has_storage_net) {
      cluster_zone->add_route(
          leaves.zones[a]->get_netpoint(), storage.zone->get_netpoint(), leaves.gateways[a], storage.gateway,
          {sg4::LinkInRoute(leaves.uplinks[a], Direction::UP), sg4::LinkInRoute(storage.port, Direction::UP)}, true);
    }
  }
  if (!cv.has_storage_net) {
    cluster_zone->add_route(storage.zone->get_netpoint(), spine_zone->get_netpoint(), storage.gateway, spine,
                            {sg4::LinkInRoute(storage.port, Direction::DOWN)}, true);
  }
  cluster_zone->seal();
  cluster_zones_.push_back(cluster_zone);
  cluster_gateways_.push_back(spine);
  clusters_.push_back(std::move(hosts));
}

bool Platform::uplinks_never_bind(const topology::ClusterGraph& graph, const topology::ClusterVertices& cv) {
  const auto& g = graph.graph();
  std::vector<double> nic_Bps(cv.leaves.size(), 0.0);
  for (std::size_t n = 0; n < cv.nodes.size(); ++n) {
    std::uint32_t leaf = cv.leaf_of_node[n];
    nic_Bps[leaf] += edge_between(g, cv.nodes[n], cv.leaves[leaf]).bw_Bps;
  }
  for (std::size_t leaf = 0; leaf < cv.leaves.size(); ++leaf) {
    if (edge_between(g, cv.leaves[leaf], cv.spine).bw_Bps < nic_Bps[leaf]) {
      return false;
    }
  }
  return true;
}

void Platform::add_nodes(const topology::ClusterGraph& graph, const topology::ClusterVertices& cv,
                         const LeafZones& leaves, sg4::NetZone* ports_zone, ClusterHosts& hosts) const {
  const auto& g = graph.graph();
  for (std::size_t n = 0; n < cv.nodes.size(); ++n) {
    topology::Vertex node = cv.nodes[n];
    std::uint32_t leaf = cv.leaf_of_node[n];
    sg4::NetZone* zone = leaves.zones[leaf];
    auto* host = zone->create_host(g[node].name, HOST_SPEED_FLOPS);
    host->set_core_count(static_cast<int>(cv.gpus_per_node));
    host->seal();
    const auto& nic_edge = edge_between(g, node, cv.leaves[leaf]);
    auto* nic = make_link(zone, nic_edge);
    zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr, {sg4::LinkInRoute(nic, Direction::UP)}, true);
    auto* nvlink = make_link(zone, g[node].name + "-nvlink", cv.nvlink_bw_Bps, 0.0);
    zone->add_route(host->get_netpoint(), host->get_netpoint(), nullptr, nullptr,
                    {sg4::LinkInRoute(nvlink, Direction::UP)}, false);
    hosts.nodes.push_back(host);
    hosts.nics.push_back(nic);
    hosts.endpoints.push_back(host);
    hosts.storage_nics.push_back(nic);
    if (fluid_) {
      add_ports(ports_zone != nullptr ? ports_zone : zone, g[node].name, nic, hosts);
    }
    hosts.storage_nic_bw_Bps.push_back(nic_edge.bw_Bps);
  }
  for (auto* zone : leaves.zones) {
    zone->seal();
  }
}

void Platform::add_ports(sg4::NetZone* zone, const std::string& node, sg4::SplitDuplexLink* nic,
                         ClusterHosts& hosts) const {
  for (const char* kind : {"dp", "pp"}) {
    auto* port = zone->create_host(node + "-" + kind, HOST_SPEED_FLOPS);
    port->seal();
    auto* link = make_link(zone, node + "-" + kind + "-port", PORT_BW_Bps, 0.0);
    zone->add_route(port->get_netpoint(), nullptr, nullptr, nullptr,
                    {sg4::LinkInRoute(link, Direction::UP), sg4::LinkInRoute(nic, Direction::UP)}, true);
    hosts.ports.push_back(port);
    hosts.port_links.push_back(link);
  }
}

Platform::StorageZone Platform::add_storage(const topology::ClusterGraph& graph, const topology::ClusterVertices& cv,
                                            sg4::NetZone* cluster_zone, ClusterHosts& hosts) const {
  // The storage system: a host whose own link is the storage device (aggregate bandwidth).
  const auto& g = graph.graph();
  topology::Vertex attach = cv.has_storage_net ? cv.storage_net : cv.spine;
  const auto& port_edge = edge_between(g, attach, cv.storage);
  auto [storage_zone, storage_gateway] = star_with_gateway(cluster_zone, g[cv.storage].name + "-gw");
  hosts.storage = storage_zone->create_host(g[cv.storage].name, HOST_SPEED_FLOPS);
  hosts.storage->seal();
  auto* device =
      make_link(storage_zone, g[cv.storage].name + "-device", cv.storage_device_bw_Bps, cv.storage_latency_s);
  auto* port = make_link(cv.has_storage_net ? storage_zone : cluster_zone, port_edge);
  if (!cv.has_storage_net) {
    storage_zone->add_route(hosts.storage->get_netpoint(), nullptr, nullptr, nullptr,
                            {sg4::LinkInRoute(device, Direction::UP)}, true);
    storage_zone->seal();
    return {storage_zone, storage_gateway, port};
  }
  // Dedicated storage network: node endpoints and the storage share one star; port and device are
  // on the storage host's side of it.
  storage_zone->add_route(hosts.storage->get_netpoint(), nullptr, nullptr, nullptr,
                          {sg4::LinkInRoute(device, Direction::UP), sg4::LinkInRoute(port, Direction::UP)}, true);
  for (std::size_t n = 0; n < cv.node_storage.size(); ++n) {
    topology::Vertex endpoint = cv.node_storage[n];
    auto* host = storage_zone->create_host(g[endpoint].name, HOST_SPEED_FLOPS);
    host->seal();
    const auto& nic_edge = edge_between(g, endpoint, cv.storage_net);
    auto* nic = make_link(storage_zone, nic_edge);
    storage_zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr, {sg4::LinkInRoute(nic, Direction::UP)},
                            true);
    hosts.endpoints[n] = host;
    hosts.storage_nics[n] = nic;
    hosts.storage_nic_bw_Bps[n] = nic_edge.bw_Bps;
  }
  storage_zone->seal();
  return {storage_zone, storage_gateway, port};
}

sg4::Host* Platform::node_host(model::ClusterId cluster, model::NodeId node) const {
  return clusters_.at(model::to_index(cluster)).nodes.at(model::to_index(node));
}

sg4::Host* Platform::storage_endpoint(model::ClusterId cluster, model::NodeId node) const {
  return clusters_.at(model::to_index(cluster)).endpoints.at(model::to_index(node));
}

sg4::SplitDuplexLink* Platform::storage_nic(model::ClusterId cluster, model::NodeId node) const {
  return clusters_.at(model::to_index(cluster)).storage_nics.at(model::to_index(node));
}

double Platform::storage_nic_bw_Bps(model::ClusterId cluster, model::NodeId node) const {
  return clusters_.at(model::to_index(cluster)).storage_nic_bw_Bps.at(model::to_index(node));
}

sg4::Host* Platform::storage_host(model::ClusterId cluster) const {
  return clusters_.at(model::to_index(cluster)).storage;
}

sg4::SplitDuplexLink* Platform::compute_nic(model::ClusterId cluster, model::NodeId node) const {
  return clusters_.at(model::to_index(cluster)).nics.at(model::to_index(node));
}

std::size_t Platform::node_count(model::ClusterId cluster) const {
  return clusters_.at(model::to_index(cluster)).nodes.size();
}

sg4::SplitDuplexLink* Platform::uplink(model::ClusterId cluster, std::uint32_t leaf) const {
  return clusters_.at(model::to_index(cluster)).uplinks.at(leaf);
}

std::size_t Platform::leaf_count(model::ClusterId cluster) const {
  return clusters_.at(model::to_index(cluster)).uplinks.size();
}

sg4::Host* Platform::port_host(model::ClusterId cluster, model::NodeId node, bool pipeline) const {
  return clusters_.at(model::to_index(cluster)).ports.at(2 * model::to_index(node) + (pipeline ? 1 : 0));
}

sg4::SplitDuplexLink* Platform::port_link(model::ClusterId cluster, model::NodeId node, bool pipeline) const {
  return clusters_.at(model::to_index(cluster)).port_links.at(2 * model::to_index(node) + (pipeline ? 1 : 0));
}

bool Platform::flows_bypass_uplinks(model::ClusterId cluster) const {
  return clusters_.at(model::to_index(cluster)).ports_bypass_uplinks;
}

std::uint32_t Platform::leaf_of(model::ClusterId cluster, model::NodeId node) const {
  return clusters_.at(model::to_index(cluster)).leaf_of_node.at(model::to_index(node));
}

std::vector<std::string> Platform::route_names(const sg4::Host* from, const sg4::Host* to) {
  std::vector<sg4::Link*> links;
  double latency = 0.0;
  from->route_to(to, links, &latency);
  std::vector<std::string> names;
  for (auto* link : links) {
    names.push_back(link->get_name());
  }
  return names;
}

} // namespace acme::engine
