#include "policies/scheduling/policy_params.hpp"

#include <cstdio>
#include <limits>

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

std::uint32_t parse_count_or(const config::Node& node, std::string_view key, std::uint32_t fallback) {
  config::Node child = node[key];
  return child.is_defined() ? child.as_count() : fallback;
}

double parse_nonnegative_or(const config::Node& node, std::string_view key, double fallback) {
  config::Node child = node[key];
  return child.is_defined() ? child.as_nonnegative() : fallback;
}

double parse_duration_or(const config::Node& node, std::string_view key, double fallback) {
  config::Node child = node[key];
  return child.is_defined() ? child.as_duration_s() : fallback;
}

void parse_type_map(const config::Node& node, std::string_view key, std::vector<double>& values, double max) {
  config::Node map = node[key];
  if (!map.is_defined()) {
    return;
  }
  map.expect_keys(job_type_keys());
  for (const auto& name : map.keys()) {
    config::Node value = map[name];
    values[static_cast<std::size_t>(*job_type_from_key(name))] =
        max < std::numeric_limits<double>::max()
            ? value.as_double_in(0.0, max, "a number in [0, " + format_number(max) + "]")
            : value.as_nonnegative();
  }
}

std::string format_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

} // namespace acme::policies
