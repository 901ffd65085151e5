// A cluster's `gpu:` and `storage:` sections, declared in parameter tables. Defaults and their sources
// are in config.hpp (GpuConfig, StorageConfig).
#include "sim/config/schema_cluster_parts.hpp"

#include <string>
#include <utility>

#include "sim/config/param_power.hpp"
#include "sim/config/param_table.hpp"
#include "sim/model/units.hpp"

namespace acme::config {
namespace {

/// A bandwidth ("100GBps"), shown in GB/s; `zero_text` when the field is 0.
template <class P>
Param<P> bandwidth_param(std::string key, double P::*field, std::string doc, std::string zero_text) {
  return {std::move(key), std::move(doc), [field](const Node& v, P& p) { p.*field = v.as_bandwidth_Bps(); },
          [field, zero_text](const P& p) {
            return p.*field > 0.0 ? format_number(p.*field / model::GIGA) + "GBps" : zero_text;
          }};
}

} // namespace

const ParamTable<GpuConfig>& GpuConfig::table() {
  using P = GpuConfig;
  static const ParamTable<P> t = [] {
    ParamTable<P> table{{"model", "the GPU's name, as node lists and reports spell it",
                         [](const Node& v, P& g) { g.model = v.as_string(); }, [](const P& g) { return g.model; }},
                        {"memory", "memory of one GPU", [](const Node& v, P& g) { g.memory_bytes = v.as_bytes(); },
                         [](const P& g) { return format_number(g.memory_bytes / model::GIB_BYTES) + "GiB"; }},
                        power_param("idle_power", &P::idle_power_W, "one GPU's draw at idle (nodes spread around it)"),
                        power_param("max_power", &P::max_power_W, "one GPU's highest draw (its TDP)")};
    table.check([](const Node& node, const P& g) {
      if (g.max_power_W < g.idle_power_W) {
        node["max_power"].fail("expected max_power >= idle_power");
      }
    });
    return table;
  }();
  return t;
}

const ParamTable<StorageConfig>& StorageConfig::table() {
  using P = StorageConfig;
  static const ParamTable<P> t{
      bandwidth_param("bandwidth", &P::bw_Bps, "the shared storage system's aggregate bandwidth, each direction", "0"),
      bandwidth_param("port_bandwidth", &P::port_bw_Bps, "its attachment to the fabric", "(bandwidth)"),
      duration_param("latency", &P::latency_s, "per storage request path")};
  return t;
}

GpuConfig parse_gpu(const Node& node) {
  return GpuConfig::table().parse_section(node);
}

StorageConfig parse_storage(const Node& node) {
  StorageConfig storage = StorageConfig::table().parse_section(node);
  if (storage.port_bw_Bps <= 0.0) {
    storage.port_bw_Bps = storage.bw_Bps; // not the bottleneck: as fast as the storage itself
  }
  return storage;
}

} // namespace acme::config
