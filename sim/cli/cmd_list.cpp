#include <cstdio>
#include <string>
#include <string_view>

#include "policies/builtin.hpp"
#include "policies/python/register_python.hpp"
#include "sim/cli/commands.hpp"

namespace acme::cli {
namespace {

template <class Policy>
void print_family(const policies::Registry<Policy>& registry, const char* yaml_path) {
  std::string family = registry.family();
  if (family.ends_with(" policy")) {
    family.resize(family.size() - std::string_view(" policy").size());
  }
  std::printf("%s policies (%s):\n", family.c_str(), yaml_path);
  for (const auto& [name, entry] : registry.entries()) {
    std::printf("  %-22s %s\n", name.c_str(), entry.summary.c_str());
    for (const auto& p : entry.params) {
      std::printf("      %-20s default %-12s %s\n", p.name.c_str(), p.default_value.c_str(), p.description.c_str());
    }
  }
  std::printf("\n");
}

} // namespace

int cmd_list(std::vector<std::string> args) {
  for (const auto& a : args) {
    if (a == "--help" || a == "-h") {
      std::printf("usage: acme-sim list\n\nPrints every registered policy, its parameters and their defaults.\n");
      return 0;
    }
  }
  auto registries = policies::python::make_registries_with_python();
  print_family(registries.schedulers, "policies.scheduler.name, or clusters[i].policies.scheduler.name");
  print_family(registries.placements, "policies.placement.name, or clusters[i].policies.placement.name");
  print_family(registries.checkpoints, "checkpoint.policy.name");
  print_family(registries.recoveries, "recovery.policy.name");
  print_family(registries.eval_dispatches, "evaluation.dispatch.name, or workload.dispatch.name of an eval_request");
  print_family(registries.powers, "policies.power.name, or clusters[i].policies.power.name");
  return 0;
}

} // namespace acme::cli
