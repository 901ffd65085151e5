#include "acme/policies/builtin.hpp"
#include "acme/policies/placement/first_fit.hpp"
#include "acme/policies/placement/pack.hpp"
#include "acme/policies/scheduling/fifo.hpp"

namespace acme::policies {

void register_builtin_schedulers(Registry<Scheduler>& registry) {
  registry.add("fifo", "strict first-come first-served; the oldest job blocks the queue until it fits", {},
               [](const config::Node& params, const PolicyContext&) {
                 expect_policy_keys(params, {});
                 return std::make_unique<FifoScheduler>();
               });
}

void register_builtin_placements(Registry<PlacementPolicy>& registry) {
  registry.add("first_fit", "lowest-numbered node(s) that fit", {}, [](const config::Node& params, const PolicyContext&) {
    expect_policy_keys(params, {});
    return std::make_unique<FirstFitPlacement>();
  });
  registry.add("pack", "jobs of up to one node on the fullest node that fits (NVLink domain); gang jobs on whole nodes",
               {}, [](const config::Node& params, const PolicyContext&) {
                 expect_policy_keys(params, {});
                 return std::make_unique<PackPlacement>();
               });
}

PolicyRegistries make_builtin_registries() {
  PolicyRegistries r;
  register_builtin_schedulers(r.schedulers);
  register_builtin_placements(r.placements);
  return r;
}

} // namespace acme::policies
