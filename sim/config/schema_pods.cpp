// Validation of a cluster's `pods:` section: Kubernetes' binding throughput and image pulls.
#include "sim/config/schema_pods.hpp"

#include <utility>

#include "sim/config/param_table.hpp"
#include "sim/model/limits.hpp"

namespace acme::config {
namespace {

constexpr double MAX_BIND_RATE_PER_S = 1e6; // pods bound per second: far above any kube-scheduler
constexpr double MAX_SIZE_SIGMA = 5.0;      // of the log: beyond it image sizes span > 10^4x at 2 sigma
constexpr std::uint32_t MAX_IMAGES = 10'000;
constexpr double BYTES_PER_GB = 1e9;
constexpr double BYTES_PER_MB = 1e6;

/// Keys that mean nothing without an image size.
const std::vector<std::string> PULL_KEYS = {"image_size_sigma", "pull_bandwidth", "registry_bandwidth",
                                            "images_per_user",  "cache_images",   "cpu_cache_images"};

/// A size in bytes ("10GB"), shown in GB (0: none).
Param<PodConfig> bytes_param(std::string key, double PodConfig::*field, std::string doc) {
  return {std::move(key), std::move(doc), [field](const Node& v, PodConfig& p) { p.*field = v.as_bytes(); },
          [field](const PodConfig& p) { return p.*field > 0.0 ? format_number(p.*field / BYTES_PER_GB) + "GB" : "0"; }};
}

/// A bandwidth ("200MBps"), shown in MB/s; `unbounded_text` for the no-bound default.
Param<PodConfig> bandwidth_param(std::string key, double PodConfig::*field, std::string doc,
                                 std::string unbounded_text) {
  return {std::move(key), std::move(doc), [field](const Node& v, PodConfig& p) { p.*field = v.as_bandwidth_Bps(); },
          [field, unbounded_text](const PodConfig& p) {
            if (p.*field >= model::limits::MAX_BANDWIDTH_BPS) {
              return unbounded_text;
            }
            return p.*field > 0.0 ? format_number(p.*field / BYTES_PER_MB) + "MBps" : std::string("(none)");
          }};
}

/// cpu_cache_images: a count, whose default is cache_images' value (parse_pods), shown as such.
Param<PodConfig> cpu_cache_param() {
  Param<PodConfig> p =
      count_param("cpu_cache_images", &PodConfig::cpu_cache_images, "images a CPU-pool server keeps", 1, MAX_IMAGES);
  p.show = [](const PodConfig&) { return std::string("(cache_images)"); };
  return p;
}

/// Image keys without an image size, and an image size without a pull bandwidth, are refused.
void check_pulls(const Node& node, const PodConfig& p) {
  if (!p.pulls()) {
    for (const auto& key : PULL_KEYS) {
      if (node[key].is_defined()) {
        node[key].fail("needs image_size; expected image_size (e.g. 10GB) with it");
      }
    }
    return;
  }
  if (!node["pull_bandwidth"].is_defined()) {
    node.fail("image_size needs pull_bandwidth (one node's pull from the registry, e.g. 200MBps)");
  }
}

} // namespace

const ParamTable<PodConfig>& PodConfig::table() {
  using P = PodConfig;
  static const ParamTable<P> t = [] {
    ParamTable<P> table{
        number_param("bind_rate", &P::bind_rate_per_s,
                     "pods kube-scheduler binds per second, one after another (0: bound at once)",
                     Bounds{0.0, MAX_BIND_RATE_PER_S}),
        bytes_param("image_size", &P::image_bytes,
                    "median container image a node pulls before a pod of an image it lacks starts (0: no pulls)"),
        number_param("image_size_sigma", &P::image_size_sigma,
                     "lognormal spread (of the log) of image sizes across images", Bounds{0.0, MAX_SIZE_SIGMA}),
        bandwidth_param("pull_bandwidth", &P::pull_bw_Bps,
                        "one node's pull from the registry (required with image_size)", "(none)"),
        bandwidth_param("registry_bandwidth", &P::registry_bw_Bps,
                        "the registry in all, shared by the nodes of one job pulling at once", "unbounded"),
        count_param("images_per_user", &P::images_per_user, "distinct images a user's jobs run (by job type)", 1,
                    MAX_IMAGES),
        count_param("cache_images", &P::cache_images, "images a node keeps (least recently used evicted)", 1,
                    MAX_IMAGES),
        cpu_cache_param()};
    table.check(check_pulls);
    return table;
  }();
  return t;
}

PodConfig parse_pods(const Node& node) {
  PodConfig p = PodConfig::table().parse_section(node);
  if (node.is_defined() && !node["cpu_cache_images"].is_defined()) {
    p.cpu_cache_images = p.cache_images;
  }
  return p;
}

} // namespace acme::config
