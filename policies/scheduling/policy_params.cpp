#include "policies/scheduling/policy_params.hpp"

namespace acme::policies {
namespace {
constexpr std::string_view TYPE_KEYS[model::JOB_TYPE_COUNT] = {"pretrain", "sft", "mllm", "eval", "debug", "other"};
} // namespace

std::string_view job_type_key(model::JobType type) {
  return TYPE_KEYS[static_cast<std::size_t>(type)];
}

std::optional<model::JobType> job_type_from_key(std::string_view key) {
  for (model::JobType type : model::ALL_JOB_TYPES) {
    if (job_type_key(type) == key) {
      return type;
    }
  }
  return std::nullopt;
}

std::vector<std::string> job_type_keys() {
  std::vector<std::string> out;
  for (model::JobType type : model::ALL_JOB_TYPES) {
    out.emplace_back(job_type_key(type));
  }
  return out;
}

void read_type_map(const config::Node& map, std::vector<double>& values, const Bounds& bounds) {
  map.expect_map();
  map.expect_keys(job_type_keys());
  for (const auto& name : map.keys()) {
    config::Node value = map[name];
    double v = value.as_double();
    expect_within(value, v, bounds, false);
    values[static_cast<std::size_t>(*job_type_from_key(name))] = v;
  }
}

std::string show_type_map(const std::vector<double>& values) {
  std::string out;
  for (model::JobType type : model::ALL_JOB_TYPES) {
    out += std::string(out.empty() ? "{" : ", ") + std::string(job_type_key(type)) + ": " +
           format_number(values[static_cast<std::size_t>(type)]);
  }
  return out + "}";
}

void read_type_route(const config::Node& map, TypeRoute& route) {
  map.expect_map();
  map.expect_keys(job_type_keys());
  for (const auto& name : map.keys()) {
    config::Node value = map[name];
    auto to = job_type_from_key(value.as_string());
    if (!to) {
      std::string names;
      for (const auto& key : job_type_keys()) {
        names += (names.empty() ? "" : ", ") + key;
      }
      value.fail("unknown job type \"" + value.as_string() + "\"; expected one of: " + names);
    }
    route[static_cast<std::size_t>(*job_type_from_key(name))] = *to;
  }
}

std::string show_type_route(const TypeRoute& route) {
  std::string out;
  for (model::JobType type : model::ALL_JOB_TYPES) {
    model::JobType to = route[static_cast<std::size_t>(type)];
    if (to != type) {
      out +=
          std::string(out.empty() ? "" : ", ") + std::string(job_type_key(type)) + ": " + std::string(job_type_key(to));
    }
  }
  return "{" + out + "}";
}

} // namespace acme::policies
