// Fuzzes the config loader with `--set` overrides: YAML text, then after a line "---set" one override per
// line. Bad input must end in a ConfigError; anything else (another exception, a crash, a sanitizer report,
// a hang) is a bug. The policies the config names parse their parameters too.
#include <cstdint>
#include <string>
#include <vector>

#include "policies/builtin.hpp"
#include "sim/config/config.hpp"
#include "sim/config/faults.hpp"
#include "sim/model/error.hpp"
#include "tests/fuzz/fuzz_input.hpp"

namespace {

constexpr std::string_view SET_MARK = "\n---set\n";

void parse_policies(const acme::config::Config& cfg) {
  static const acme::policies::PolicyRegistries registries = acme::policies::make_builtin_registries();
  for (const auto& c : cfg.clusters) {
    registries.schedulers.create(c.scheduler, {cfg.seed, c.name, "/nonexistent-acme-fuzz"});
    registries.placements.create(c.placement, {cfg.seed, c.name, "/nonexistent-acme-fuzz"});
  }
  registries.checkpoints.create(cfg.faults->checkpoint.policy, {cfg.seed, "", "/nonexistent-acme-fuzz"});
  registries.recoveries.create(cfg.faults->recovery.policy, {cfg.seed, "", "/nonexistent-acme-fuzz"});
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input = acme::fuzz::as_text(data, size);
  std::string_view yaml = input.substr(0, input.find(SET_MARK));
  std::vector<acme::config::Override> overrides;
  try {
    if (yaml.size() < input.size()) {
      std::string_view sets = input.substr(yaml.size() + SET_MARK.size());
      while (!sets.empty()) {
        std::string_view line = sets.substr(0, sets.find('\n'));
        overrides.push_back(acme::config::parse_override(std::string(line)));
        sets.remove_prefix(std::min(sets.size(), line.size() + 1));
      }
    }
    // Relative paths (traces, node lists) resolve under a folder that does not exist.
    acme::config::Config cfg =
        acme::config::load_config_text(std::string(yaml), "fuzz.yaml", "/nonexistent-acme-fuzz", overrides);
    parse_policies(cfg);
  } catch (const acme::ConfigError&) {
    return 0; // bad input, reported as such
  }
  return 0;
}
