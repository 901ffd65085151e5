#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policies/param_table.hpp"
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

/// Reads a type map (see type_map_param) over `values`, one per job type.
void read_type_map(const config::Node& map, std::vector<double>& values, const Bounds& bounds);
/// "{pretrain: 1, sft: 0.6, mllm: 0.6, eval: 0.2, debug: 0.6, other: 0.2}"
std::string show_type_map(const std::vector<double>& values);

/// Per job type, another job type it maps to (`quota_of`, `qos_of`); by default each type maps to itself.
using TypeRoute = std::array<model::JobType, model::JOB_TYPE_COUNT>;

/// Reads a map from job-type keys to job-type names ({debug: pretrain}) into `route`; types it does not
/// name keep their target.
void read_type_route(const config::Node& map, TypeRoute& route);
/// Only the types that map elsewhere: "{debug: pretrain}"; "{}" when none does.
std::string show_type_route(const TypeRoute& route);

template <class P>
Param<P> type_route_param(std::string key, TypeRoute P::*field, std::string doc) {
  return {std::move(key), std::move(doc), [field](const config::Node& map, P& p) { read_type_route(map, p.*field); },
          [field](const P& p) { return show_type_route(p.*field); }};
}

/// A map from job-type keys to numbers within `bounds` ({pretrain: 1, eval: 0.2}); types it does not
/// name keep their value. Shown with every type's value.
template <class P>
Param<P> type_map_param(std::string key, std::vector<double> P::*field, std::string doc, Bounds bounds = {}) {
  return {std::move(key), std::move(doc),
          [field, bounds](const config::Node& map, P& p) { read_type_map(map, p.*field, bounds); },
          [field](const P& p) { return show_type_map(p.*field); }};
}

} // namespace acme::policies
