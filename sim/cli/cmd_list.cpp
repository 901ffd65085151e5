#include "acme/cli/commands.hpp"
#include "acme/policies/builtin.hpp"

#include <cstdio>

namespace acme::cli {
namespace {

template <class Policy>
void print_family(const policies::Registry<Policy>& registry, const char* yaml_key) {
  std::printf("%s policies (clusters[i].policies.%s.name):\n", registry.family().c_str(), yaml_key);
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
  auto registries = policies::make_builtin_registries();
  print_family(registries.schedulers, "scheduler");
  print_family(registries.placements, "placement");
  return 0;
}

} // namespace acme::cli
