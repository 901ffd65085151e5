#pragma once

// A policy's parameters: the table of sim/config/param_table.hpp (shared with the config's sections),
// and the registration of a policy by its parameter struct.

#include <memory>
#include <string>
#include <utility>

#include "policies/registry.hpp"
#include "sim/config/param_table.hpp"

namespace acme::policies {

using config::Bounds;
using config::choice_param;
using config::count_param;
using config::describe_bounds;
using config::describe_count_bounds;
using config::distribution_param;
using config::duration_param;
using config::expect_within;
using config::flag_param;
using config::format_duration;
using config::format_number;
using config::nested_param;
using config::number_param;
using config::Param;
using config::ParamTable;
using config::read_distribution;

/// The parameters of a policy that has none.
struct NoParams {
  static const ParamTable<NoParams>& table() {
    static const ParamTable<NoParams> none;
    return none;
  }
};

/// Registers the policy `name` whose parameters are P: `acme-sim list` shows P::table()'s documentation
/// and the factory gets P::table().parse(the policy's mapping). `make(const P&, const PolicyContext&)`
/// returns the policy.
template <class P, class Policy, class Make>
void add_policy(Registry<Policy>& registry, std::string name, std::string summary, Make make) {
  registry.add(std::move(name), std::move(summary), P::table().docs(),
               [make](const config::Node& node, const PolicyContext& context) -> std::unique_ptr<Policy> {
                 return make(P::table().parse(node), context);
               });
}

} // namespace acme::policies
