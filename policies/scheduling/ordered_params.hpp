#pragma once

#include <string>
#include <vector>

#include "policies/registry.hpp"
#include "policies/scheduling/ordered_scheduler.hpp"
#include "sim/config/node.hpp"

namespace acme::policies {

// Keys shared by the single-queue schedulers.

/// `queue_depth`: jobs examined per pass (default DEFAULT_QUEUE_DEPTH).
std::uint32_t parse_queue_depth(const config::Node& node);
ParamDoc queue_depth_doc();
/// `backfill: easy | none` (default `fallback`).
BackfillMode parse_backfill(const config::Node& node, BackfillMode fallback);
ParamDoc backfill_doc(BackfillMode fallback);
/// `order: fifo | priority` (default `fallback`).
OrderKind parse_order(const config::Node& node, OrderKind fallback);

/// Concatenates key lists (for expect_policy_keys).
std::vector<std::string> concat_keys(std::vector<std::vector<std::string>> lists);
std::vector<ParamDoc> concat_docs(std::vector<std::vector<ParamDoc>> lists);

} // namespace acme::policies
