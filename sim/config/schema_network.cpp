// Validation of a cluster's fabric (`clusters[i].network`) and of the top-level `network:` section (the
// training-traffic model). Sources: "paper" = Hu et al., NSDI'24, as summarised in data/README.md.
#include <charconv>
#include <cmath>

#include "sim/config/config.hpp"
#include "sim/model/limits.hpp"
#include "sim/model/units.hpp"

namespace acme::config {
namespace {

constexpr double DEFAULT_NIC_GBITPS = 200.0;         // paper: HDR InfiniBand 200 Gb/s
constexpr std::uint32_t DEFAULT_NODES_PER_LEAF = 20; // a 40-port HDR leaf: 20 down, 20 up (non-blocking)
constexpr double DEFAULT_LINK_LATENCY_S = 1e-6;      // InfiniBand switch hop, order of 1 us
constexpr const char* OVERSUBSCRIPTION_HINT = "expected a ratio such as \"1:1\", \"2:1\" or \"4:1\" (or a number >= 1)";

const std::vector<std::string> FABRIC_KEYS = {"nics_per_node",
                                              "nic_bandwidth",
                                              "storage_nics_per_node",
                                              "storage_nic_bandwidth",
                                              "nodes_per_leaf",
                                              "leaf_uplink_bandwidth",
                                              "uplinks_per_leaf",
                                              "uplink_bandwidth",
                                              "oversubscription",
                                              "spines",
                                              "latency"};

/// "2:1", "2" or 2 -> 2.
double parse_ratio(const Node& node) {
  std::string text = node.as_string();
  std::size_t colon = text.find(':');
  std::string head = text.substr(0, colon);
  double ratio = 0.0;
  auto [end, ec] = std::from_chars(head.data(), head.data() + head.size(), ratio);
  bool ok = ec == std::errc() && end == head.data() + head.size() && std::isfinite(ratio) && ratio >= 1.0;
  if (colon != std::string::npos) {
    ok = ok && text.substr(colon + 1) == "1";
  }
  if (!ok) {
    node.fail("bad oversubscription \"" + text + "\"; " + OVERSUBSCRIPTION_HINT);
  }
  return ratio;
}

/// Uplinks per leaf and their bandwidth: from `uplinks_per_leaf`, or `oversubscription` (down ports over
/// up ports), or the aggregate `leaf_uplink_bandwidth`; default non-blocking.
void parse_uplinks(const Node& node, NetworkConfig& net) {
  std::uint32_t down_ports = net.nodes_per_leaf * net.nics_per_node;
  net.uplink_bw_Bps = node.get_or("uplink_bandwidth", net.nic_bw_Bps, &Node::as_bandwidth_Bps);
  net.uplinks_per_leaf = down_ports;
  Node ratio = node["oversubscription"];
  Node count = node["uplinks_per_leaf"];
  Node aggregate = node["leaf_uplink_bandwidth"];
  if ((ratio.is_defined() ? 1 : 0) + (count.is_defined() ? 1 : 0) + (aggregate.is_defined() ? 1 : 0) > 1) {
    (count.is_defined() ? count : ratio)
        .fail("set one of oversubscription, uplinks_per_leaf and leaf_uplink_bandwidth; expected a single way to "
              "size the leaf uplinks");
  }
  if (ratio.is_defined()) {
    // The ratio of capacities: down ports over uplinks, however few ports a leaf has (a leaf of one
    // node at 2:1 has half a NIC up); failures remove capacity in whole uplinks.
    double r = parse_ratio(ratio);
    net.uplinks_per_leaf = std::max(1u, static_cast<std::uint32_t>(std::ceil(down_ports / r)));
    net.leaf_uplink_bw_Bps = down_ports * net.nic_bw_Bps / r;
    net.uplink_bw_Bps = net.leaf_uplink_bw_Bps / net.uplinks_per_leaf;
    if (!(net.uplink_bw_Bps >= model::limits::MIN_BANDWIDTH_BPS)) {
      ratio.fail("oversubscription \"" + excerpt(ratio.as_string()) + "\" leaves a leaf uplink " +
                 number_text(net.uplink_bw_Bps) + " B/s, below the bound of 1 kB/s; expected at most " +
                 number_text(std::floor(down_ports * net.nic_bw_Bps / model::limits::MIN_BANDWIDTH_BPS)) + ":1");
    }
  } else {
    if (count.is_defined()) {
      net.uplinks_per_leaf = count.as_count();
    }
    net.leaf_uplink_bw_Bps = net.uplinks_per_leaf * net.uplink_bw_Bps;
  }
  if (aggregate.is_defined()) {
    net.leaf_uplink_bw_Bps = aggregate.as_bandwidth_Bps();
    net.uplinks_per_leaf =
        std::max(1u, static_cast<std::uint32_t>(std::lround(net.leaf_uplink_bw_Bps / net.uplink_bw_Bps)));
    net.uplink_bw_Bps = net.leaf_uplink_bw_Bps / net.uplinks_per_leaf;
  }
  net.spines = node.get_or("spines", net.uplinks_per_leaf, &Node::as_count);
  if (net.uplinks_per_leaf % net.spines != 0) {
    node["spines"].fail("expected a divisor of the uplinks per leaf (" + std::to_string(net.uplinks_per_leaf) +
                        "): each leaf spreads its uplinks evenly over the spines");
  }
}

} // namespace

double NetworkConfig::oversubscription() const {
  double down = static_cast<double>(nodes_per_leaf) * nics_per_node * nic_bw_Bps;
  return leaf_uplink_bw_Bps > 0.0 ? down / leaf_uplink_bw_Bps : 0.0;
}

NetworkConfig parse_network(const Node& node) {
  NetworkConfig net;
  net.nic_bw_Bps = model::gbps_to_Bps(DEFAULT_NIC_GBITPS);
  net.storage_nic_bw_Bps = net.nic_bw_Bps;
  net.nodes_per_leaf = DEFAULT_NODES_PER_LEAF;
  net.link_latency_s = DEFAULT_LINK_LATENCY_S;
  if (node.is_defined()) {
    node.expect_keys(FABRIC_KEYS);
    if (Node nics = node["nics_per_node"]; nics.is_defined()) {
      net.nics_per_node = nics.as_count_upto(model::limits::MAX_NICS_PER_NODE);
    }
    net.nic_bw_Bps = node.get_or("nic_bandwidth", net.nic_bw_Bps, &Node::as_bandwidth_Bps);
    if (Node storage_nics = node["storage_nics_per_node"]; storage_nics.is_defined()) {
      // 0: storage traffic shares the compute NICs
      net.storage_nics_per_node = storage_nics.as_count_or_zero(model::limits::MAX_NICS_PER_NODE);
    }
    net.storage_nic_bw_Bps = node.get_or("storage_nic_bandwidth", net.nic_bw_Bps, &Node::as_bandwidth_Bps);
    if (Node per_leaf = node["nodes_per_leaf"]; per_leaf.is_defined()) {
      net.nodes_per_leaf = per_leaf.as_count_upto(model::limits::MAX_NODES_PER_CLUSTER);
    }
    net.link_latency_s = node.get_or("latency", net.link_latency_s, &Node::as_duration_s);
  }
  // Default: a non-blocking leaf (one uplink per down port, as fast as a NIC).
  parse_uplinks(node, net);
  return net;
}

} // namespace acme::config
