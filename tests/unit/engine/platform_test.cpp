#include <catch2/catch.hpp>

#include "sim/config/config.hpp"
#include "sim/engine/platform.hpp"
#include "sim/topology/cluster_graph.hpp"
#include "tests/unit/test_paths.hpp"

using namespace acme;

namespace {
std::vector<std::string> route(const engine::Platform& p, model::ClusterId ca, std::uint32_t a, model::ClusterId cb,
                               std::uint32_t b) {
  return engine::Platform::route_names(p.node_host(ca, model::NodeId{a}), p.node_host(cb, model::NodeId{b}));
}
} // namespace

// One engine per process: no SECTIONs (Catch re-enters the test case for each).
TEST_CASE("engine::platform: routes of the Acme platform", "[engine][platform]") {
  config::Config cfg = config::load_config(test::source_path("configs/acme.yaml"));
  topology::ClusterGraph graph(cfg);
  engine::Platform platform(graph, cfg);
  const model::ClusterId seren{0};
  const model::ClusterId kalos{1};
  REQUIRE(platform.summary().total_gpus == 4704);
  REQUIRE(platform.summary().clusters[0].gpus == 2288);
  REQUIRE(platform.summary().clusters[1].gpus == 2416);

  // nodes under one leaf talk through their NICs only
  { REQUIRE(route(platform, seren, 0, seren, 1) == std::vector<std::string>{"c0-n0000-nic_UP", "c0-n0001-nic_DOWN"}); }
  // nodes under different leaves cross both leaf uplinks
  {
    REQUIRE(route(platform, seren, 0, seren, 25) == std::vector<std::string>{"c0-n0000-nic_UP", "c0-leaf0000-up_UP",
                                                                             "c0-leaf0001-up_DOWN",
                                                                             "c0-n0025-nic_DOWN"});
  }
  // a node's own loopback is its NVLink
  { REQUIRE(route(platform, seren, 3, seren, 3) == std::vector<std::string>{"c0-n0003-nvlink_UP"}); }
  // Seren writes to storage through NIC, leaf uplink, storage port and device
  {
    auto names =
        engine::Platform::route_names(platform.storage_endpoint(seren, model::NodeId{0}), platform.storage_host(seren));
    REQUIRE(names == std::vector<std::string>{"c0-n0000-nic_UP", "c0-leaf0000-up_UP", "c0-storage-port_UP",
                                              "c0-storage-device_DOWN"});
  }
  // Kalos reads from storage through its dedicated storage NIC
  {
    auto names =
        engine::Platform::route_names(platform.storage_host(kalos), platform.storage_endpoint(kalos, model::NodeId{7}));
    REQUIRE(names == std::vector<std::string>{"c1-storage-device_UP", "c1-storage-port_UP", "c1-n0007-stor-nic_DOWN"});
  }
  // cross-cluster traffic crosses the backbone
  {
    auto names = route(platform, seren, 0, kalos, 0);
    REQUIRE(names == std::vector<std::string>{"c0-n0000-nic_UP", "c0-leaf0000-up_UP", "backbone-c0-c1_UP",
                                              "c1-leaf0000-up_DOWN", "c1-n0000-nic_DOWN"});
  }
}
