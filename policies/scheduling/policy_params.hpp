#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/config/node.hpp"
#include "sim/model/job.hpp"

namespace acme::policies {

/// Jobs a scheduling pass examines at most (the queue depth), Slurm's default_queue_depth of 100
/// (slurm.schedmd.com/sched_config.html: jobs considered on each event-triggered scheduling attempt).
inline constexpr std::uint32_t DEFAULT_QUEUE_DEPTH = 100;

/// The YAML spelling of a job type in policy parameters: pretrain, sft, mllm, eval, debug, other.
std::string_view job_type_key(model::JobType type);
std::optional<model::JobType> job_type_from_key(std::string_view key);
std::vector<std::string> job_type_keys();

/// Reads `key` of `node` as one of `choices` (fallback when absent); anything else fails with the
/// accepted values: "unknown <what> "x"; expected one of: a, b".
template <class E>
E parse_choice(const config::Node& node, std::string_view key, E fallback,
               const std::vector<std::pair<std::string, E>>& choices, const std::string& what) {
  config::Node child = node[key];
  if (!child.is_defined()) {
    return fallback;
  }
  std::string text = child.as_string();
  std::vector<std::string> names;
  for (const auto& [name, value] : choices) {
    if (name == text) {
      return value;
    }
    names.push_back(name);
  }
  std::string list;
  for (const auto& n : names) {
    list += (list.empty() ? "" : ", ") + n;
  }
  child.fail("unknown " + what + " \"" + text + "\"; expected one of: " + list);
}

/// A strictly positive count under `key`, or `fallback` when absent.
std::uint32_t parse_count_or(const config::Node& node, std::string_view key, std::uint32_t fallback);
/// A number >= 0 under `key`, or `fallback` when absent.
double parse_nonnegative_or(const config::Node& node, std::string_view key, double fallback);
/// A duration under `key` ("30min", "7d"), or `fallback` when absent.
double parse_duration_or(const config::Node& node, std::string_view key, double fallback);
/// A mapping from job-type keys to numbers in [0, max] under `key`, overriding `values` for the types it names.
void parse_type_map(const config::Node& node, std::string_view key, std::vector<double>& values,
                    double max = std::numeric_limits<double>::max());

/// "1.5" style text for defaults in ParamDocs.
std::string format_number(double value);

} // namespace acme::policies
