// The node power family: one line per policy.
#include "policies/builtin.hpp"
#include "policies/power/idle_shutdown.hpp"

namespace acme::policies {

void register_builtin_power_policies(Registry<PowerPolicy>& r) {
  add_policy<NoParams>(r, "none", "every node stays on",
                       [](const NoParams&, const PolicyContext&) { return std::make_unique<AlwaysOn>(); });
  add_policy<IdleShutdownParams>(
      r, "idle_shutdown",
      "switch a node off after `idle_after` idle, keeping `reserve` idle nodes on; boot nodes for the queue's "
      "demand (a job waiting for one waits `boot_time` more)",
      [](const auto& p, const PolicyContext&) { return std::make_unique<IdleShutdown>(p); });
}

} // namespace acme::policies
