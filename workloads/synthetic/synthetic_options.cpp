#include "workloads/synthetic/synthetic_options.hpp"

#include <algorithm>
#include <cmath>

#include "sim/config/faults.hpp"
#include "sim/model/civil_time.hpp"
#include "sim/model/limits.hpp"
#include "sim/model/units.hpp"
#include "workloads/synthetic/cluster_model.hpp"

namespace acme::workloads::synthetic {
namespace {

// Defaults. The period and start are AcmeTrace's (data/README.md: timestamps from 2023-03-01; paper
// Table 2 volumes over the 183 days the issue fixes); the rest are documented assumptions.
constexpr double DEFAULT_DAYS = 183.0;
constexpr const char* DEFAULT_START = "2023-03-01";
constexpr double DEFAULT_EVAL_BATCH = 60.0;        // data/README.md: about 60 datasets per model checkpoint
constexpr double DEFAULT_RESUBMIT_DELAY_S = 600.0; // assumption: a person resubmits within ~10 minutes
constexpr std::uint32_t DEFAULT_USERS = 100;       // assumption: AcmeTrace's user count is not in data/
constexpr double DEFAULT_SCRIPT_SHARE = 0.5;       // assumption: data/README.md gives framework+script together
constexpr double DEFAULT_DAILY_AMPLITUDE = 0.5;    // assumption: busiest hour 3x the quietest
constexpr double DEFAULT_PEAK_HOUR = 15.0;         // assumption: mid-afternoon local time
constexpr double DEFAULT_WEEKEND_FACTOR = 0.5;     // Philly 2017 (data/traces/philly_jobs_pollux.csv): ~0.5x
constexpr double HOURS_PER_DAY = 24.0;
constexpr std::size_t DATE_ONLY_LENGTH = 10; // "2023-03-01"
constexpr double MAX_EVAL_BATCH = 10000.0;   // 160x the paper's ~60 datasets per checkpoint
constexpr double MAX_SWEEP = 1000.0;         // jobs one user submits at once, on average

const std::vector<std::string> KEYS = {
    "kind",          "preset",    "cluster",         "days",           "scale", "seed",
    "start",         "rhythm",    "eval_batch_size", "resubmit_delay", "users", "script_failure_share",
    "cpu_job_cores", "team_gpus", "sweep_size"};
const std::vector<std::string> PRESETS = {"acme", "seren", "kalos"};

double positive(const config::Node& node, double fallback) {
  if (!node.is_defined()) {
    return fallback;
  }
  double value = node.as_double();
  if (!(value > 0.0) || !std::isfinite(value)) {
    node.fail("expected a positive number, got " + node.yaml().Scalar());
  }
  return value;
}

double in_range(const config::Node& node, double fallback, double lo, double hi, const std::string& what) {
  if (!node.is_defined()) {
    return fallback;
  }
  double value = node.as_double();
  if (!(value >= lo && value < hi)) {
    node.fail("expected " + what + ", got " + node.yaml().Scalar());
  }
  return value;
}

double parse_start(const config::Node& node) {
  std::string text = node.is_defined() ? node.as_string() : DEFAULT_START;
  std::string full = text.size() == DATE_ONLY_LENGTH ? text + " 00:00:00" : text;
  std::string why;
  auto unix_s = model::parse_datetime(full, 0.0, &why);
  if (!unix_s) {
    node.fail("expected a date such as \"2023-03-01\" or a date-time such as \"2023-03-01 00:00:00+08:00\", got \"" +
              text + "\" (" + why + ")");
  }
  return *unix_s;
}

RhythmOptions parse_rhythm(const config::Node& node) {
  RhythmOptions r{true, DEFAULT_DAILY_AMPLITUDE, DEFAULT_PEAK_HOUR, DEFAULT_WEEKEND_FACTOR};
  if (!node.is_defined()) {
    return r;
  }
  if (node.is_scalar()) {
    r.enabled = node.as_bool();
    return r;
  }
  node.expect_keys({"enabled", "daily_amplitude", "peak_hour", "weekend_factor"});
  r.enabled = node.get_or("enabled", true, &config::Node::as_bool);
  r.daily_amplitude = in_range(node["daily_amplitude"], r.daily_amplitude, 0.0, 1.0, "a number in [0, 1)");
  r.peak_hour = in_range(node["peak_hour"], r.peak_hour, 0.0, HOURS_PER_DAY, "an hour in [0, 24)");
  r.weekend_factor = positive(node["weekend_factor"], r.weekend_factor);
  return r;
}

std::string parse_preset(const config::Node& node) {
  if (!node.is_defined()) {
    node.fail("missing key \"preset\"; expected one of: " + join(PRESETS));
  }
  std::string preset = node.as_string();
  for (const auto& p : PRESETS) {
    if (p == preset) {
      return preset;
    }
  }
  std::string msg = "unknown preset \"" + preset + "\"; expected one of: " + join(PRESETS);
  if (auto hint = did_you_mean(preset, PRESETS); !hint.empty()) {
    msg += " (did you mean \"" + hint + "\"?)";
  }
  node.fail(msg);
}

ClusterPlan plan_for(const config::Config& cfg, const config::Node& where, const std::string& name,
                     const std::string& preset, const std::string& why) {
  for (std::size_t i = 0; i < cfg.clusters.size(); ++i) {
    const config::ClusterConfig& c = cfg.clusters[i];
    if (c.name != name) {
      continue;
    }
    ClusterPlan plan{
        model::ClusterId{static_cast<std::uint16_t>(i)}, c.name, preset, c.utc_offset_s, c.gpus_per_node, 1, 1};
    if (c.gpus_per_node > 0 && c.cpu_cores_per_node >= c.gpus_per_node) {
      plan.cpus_per_gpu = c.cpu_cores_per_node / c.gpus_per_node; // paper: 16 CPU cores per GPU
    }
    plan.cpu_job_cores = plan.cpus_per_gpu;
    if (c.cpu_job_cores_per_node > 0) {
      plan.cpu_job_cores = std::min(plan.cpu_job_cores, c.cpu_job_cores_per_node);
    }
    return plan;
  }
  where.fail(why + "; the config has no cluster named \"" + name + "\" (clusters: " + join(cfg.cluster_names()) + ")");
}

std::vector<ClusterPlan> plan_clusters(const config::Config& cfg, const config::Node& section,
                                       const std::string& preset) {
  config::Node cluster = section["cluster"];
  if (preset == "acme") {
    if (cluster.is_defined()) {
      cluster.fail("preset \"acme\" generates both clusters (seren and kalos); expected no \"cluster\" key, or "
                   "preset seren or kalos");
    }
    std::vector<ClusterPlan> plans;
    for (const auto& name : preset_cluster_names()) {
      plans.push_back(
          plan_for(cfg, section["preset"], name, name, "preset \"acme\" generates clusters named seren and kalos"));
    }
    return plans;
  }
  std::string name = cluster.is_defined() ? cluster.as_string() : preset;
  config::Node where = cluster.is_defined() ? cluster : section["preset"];
  return {plan_for(cfg, where, name, preset, "preset \"" + preset + "\" generates cluster \"" + name + "\"")};
}

/// A team plan per cluster of the config; a plan for a cluster the preset does not generate is unused
/// (so a config planning Seren's team still runs with `preset: kalos`).
void parse_team_gpus(const config::Node& node, const config::Config& cfg, std::vector<ClusterPlan>& plans) {
  if (!node.is_defined()) {
    return;
  }
  if (!node.is_map()) {
    node.fail("expected a map from a cluster's name to its pretraining team's GPUs, such as {seren: 2288}");
  }
  node.expect_keys(cfg.cluster_names());
  for (const std::string& name : cfg.cluster_names()) {
    if (node[name].is_defined()) {
      node[name].as_count_or_zero(); // checked even for a cluster the preset does not generate
    }
  }
  for (auto& plan : plans) {
    plan.team_gpus = node[plan.name].is_defined() ? node[plan.name].as_count_or_zero() : 0;
  }
}

/// `sweep_size: {SFT: 4}`: mean jobs per sweep of the types that arrive one by one.
void parse_sweep_size(const config::Node& node, std::array<double, model::JOB_TYPE_COUNT>& sizes) {
  if (!node.is_defined()) {
    return;
  }
  if (!node.is_map()) {
    node.fail("expected a map from a job type to its mean jobs per sweep, such as {SFT: 4}");
  }
  for (const std::string& key : node.keys()) {
    auto type = model::parse_job_type(key);
    if (!type) {
      node[key].fail("unknown job type \"" + key + "\"; expected SFT, MLLM, Debug or Other");
    }
    if (*type == model::JobType::PRETRAIN || *type == model::JobType::EVAL) {
      node[key].fail("pretraining runs and evaluation batches (eval_batch_size) have their own arrivals; expected "
                     "SFT, MLLM, Debug or Other");
    }
    double mean = node[key].as_double();
    if (!(mean >= 1.0 && mean <= MAX_SWEEP)) {
      node[key].fail("expected a mean of 1 to " + number_text(MAX_SWEEP) + " jobs per sweep, got " +
                     node[key].yaml().Scalar());
    }
    sizes[static_cast<std::size_t>(*type)] = mean;
  }
}

} // namespace

double SyntheticOptions::end_unix_s() const {
  return start_unix_s + days * model::SECONDS_PER_DAY;
}

SyntheticOptions parse_synthetic_options(const config::Config& cfg, const config::Node& section) {
  section.expect_keys(KEYS);
  SyntheticOptions o;
  o.preset = parse_preset(section["preset"]);
  o.days = positive(section["days"], DEFAULT_DAYS);
  o.scale = positive(section["scale"], 1.0);
  if (o.days * o.scale > model::limits::MAX_SYNTHETIC_DAY_SCALE) {
    // The generator's work and the run's jobs grow with days x scale (183 x 1: about 1.1M jobs).
    config::Node where = section["days"].is_defined() ? section["days"] : section["scale"];
    where.fail("days x scale is " + number_text(o.days * o.scale) + "; expected at most " +
               number_text(model::limits::MAX_SYNTHETIC_DAY_SCALE) + " (about 10 million jobs)");
  }
  o.seed = cfg.seed;
  if (config::Node seed = section["seed"]; seed.is_defined()) {
    std::int64_t value = seed.as_int();
    if (value < 0) {
      seed.fail("expected a non-negative integer, got " + std::to_string(value));
    }
    o.seed = static_cast<std::uint64_t>(value);
  }
  o.start_unix_s = parse_start(section["start"]);
  o.rhythm = parse_rhythm(section["rhythm"]);
  o.eval_batch_size = positive(section["eval_batch_size"], DEFAULT_EVAL_BATCH);
  if (o.eval_batch_size > MAX_EVAL_BATCH) {
    section["eval_batch_size"].fail("expected at most " + number_text(MAX_EVAL_BATCH) + " evaluation jobs per batch");
  }
  o.resubmit_delay_s = DEFAULT_RESUBMIT_DELAY_S;
  if (config::Node delay = section["resubmit_delay"]; delay.is_defined()) {
    o.resubmit_delay_s = delay.as_duration_s();
    if (o.resubmit_delay_s < 0.0) {
      delay.fail("expected a duration >= 0 such as \"10min\"");
    }
  }
  o.users = section.get_or("users", DEFAULT_USERS, &config::Node::as_count);
  o.script_failure_share = in_range(section["script_failure_share"], DEFAULT_SCRIPT_SHARE, 0.0,
                                    std::nextafter(1.0, 2.0), "a share in [0, 1]");
  o.draws_infra_failures = !(cfg.faults && (cfg.faults->failures.enabled || !cfg.faults->failures.trace_path.empty()));
  o.clusters = plan_clusters(cfg, section, o.preset);
  if (config::Node cores = section["cpu_job_cores"]; cores.is_defined()) {
    for (auto& plan : o.clusters) {
      plan.cpu_job_cores = cores.as_count();
    }
  }
  parse_team_gpus(section["team_gpus"], cfg, o.clusters);
  parse_sweep_size(section["sweep_size"], o.sweep_size);
  return o;
}

} // namespace acme::workloads::synthetic
