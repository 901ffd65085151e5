// The placement family: one line per policy.
#include "policies/builtin.hpp"
#include "policies/param_table.hpp"
#include "policies/placement/first_fit.hpp"
#include "policies/placement/pack.hpp"
#include "policies/placement/random.hpp"
#include "policies/placement/topology.hpp"

namespace acme::policies {

void register_builtin_placements(Registry<PlacementPolicy>& r) {
  add_policy<NoParams>(r, "first_fit", "lowest-numbered node(s) that fit",
                       [](const NoParams&, const PolicyContext&) { return std::make_unique<FirstFitPlacement>(); });
  add_policy<NoParams>(r, "pack",
                       "jobs of up to one node on the fullest node that fits (NVLink domain); gang jobs on whole nodes",
                       [](const NoParams&, const PolicyContext&) { return std::make_unique<PackPlacement>(); });
  add_policy<NoParams>(r, "topology",
                       "multi-node jobs under as few leaf switches as possible; smaller jobs best fit, preferring "
                       "partly used leaves",
                       [](const NoParams&, const PolicyContext&) { return std::make_unique<TopologyPlacement>(); });
  add_policy<NoParams>(r, "random", "uniformly random node(s) that fit (baseline), seeded from the run seed",
                       [](const NoParams&, const PolicyContext& context) {
                         return std::make_unique<RandomPlacement>(context.seed, context.cluster);
                       });
}

} // namespace acme::policies
