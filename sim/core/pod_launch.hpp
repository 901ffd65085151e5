#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/config/config.hpp"
#include "sim/model/decision.hpp"
#include "sim/model/job.hpp"
#include "sim/model/rng.hpp"

namespace acme::core {

/// When a started job's pods are bound and its image is on all of its nodes (PodConfig).
struct PodTimes {
  double bound_s = 0.0;  ///< kube-scheduler has bound its pods (waits for the binder before)
  double pulled_s = 0.0; ///< the image is on every node (pulls after binding); the pod start comes next
};

/// Kubernetes' path from admission to pod start on one cluster:
/// - the scheduler binds pods one after another at `bind_rate` pods per second (one pod per node of a GPU
///   job, one for a CPU job), so a job waits for the pods bound before its own;
/// - a node pulls the job's container image unless it holds it: every node missing it pulls at once, at
///   `pull_bandwidth` each and `registry_bandwidth` together, so a job's pull takes size / min(pull,
///   registry / pulling nodes); a node keeps the last `cache_images` images it ran (LRU).
/// A job runs its user's image for its type (`images_per_user` per user, by job type); image sizes are
/// lognormal around `image_size` (`image_size_sigma`), drawn once per image from the run's seed.
/// A CPU job's pod lands on one of the CPU pool's `cpu_servers` (the servers power.cpu_server describes),
/// drawn uniformly: kube-scheduler scores servers with room alike and picks among the best at random.
/// That server pulls the image unless it holds it, alone, and keeps its last `cpu_cache_images` images.
class PodLaunch {
public:
  PodLaunch(const config::PodConfig& config, std::uint32_t nodes, std::uint32_t cpu_servers, std::uint64_t seed,
            const std::string& cluster);

  /// The times of a job started now on `placement`; updates the binder and the nodes' image caches.
  PodTimes start(const model::JobSpec& job, const model::Placement& placement, double now_s);
  bool enabled() const { return config_.bind_rate_per_s > 0.0 || config_.pulls(); }

private:
  std::uint64_t image_of(const model::JobSpec& job) const;
  double image_bytes(std::uint64_t image);
  /// Whether `node` holds `image`; makes it the node's most recent image either way.
  bool touch(std::uint32_t node, std::uint64_t image);
  /// When `image` is on every node of `placement` (a CPU job: on a drawn node), from `bound_s`.
  double pulled_s(std::uint64_t image, const model::Placement& placement, double bound_s);

  config::PodConfig config_;
  model::Rng rng_;
  model::Rng cpu_node_rng_; ///< the node of each CPU job's pod (its own stream: image sizes keep theirs)
  double binder_free_s_ = 0.0;
  std::uint32_t nodes_ = 0;
  std::uint32_t cpu_servers_ = 0;
  std::vector<std::vector<std::uint64_t>> cache_; ///< per node, then per CPU server; most recent last
  std::unordered_map<std::uint64_t, double> bytes_;
};

} // namespace acme::core
