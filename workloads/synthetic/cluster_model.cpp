#include "workloads/synthetic/cluster_model.hpp"

#include <algorithm>
#include <cmath>

#include "sim/model/assert.hpp"

namespace acme::workloads::synthetic {
namespace {

/// The parameter file spells types as the treemap does.
struct TypeKey {
  model::JobType type;
  const char* key;
};
constexpr TypeKey TYPE_KEYS[] = {{model::JobType::PRETRAIN, "Pretrain"}, {model::JobType::SFT, "SFT"},
                                 {model::JobType::MLLM, "MLLM"},         {model::JobType::EVAL, "Eval"},
                                 {model::JobType::DEBUG, "Debug"},       {model::JobType::OTHER, "Other"}};

DurationBins read_bins(const FittedParams& params, const std::string& prefix) {
  DurationBins bins{params.numbers(prefix + ".bin_lo"), params.numbers(prefix + ".bin_hi"),
                    params.numbers(prefix + ".bin_mass")};
  ACME_ASSERT(bins.lo_s.size() == bins.hi_s.size() && bins.lo_s.size() == bins.mass.size() && !bins.lo_s.empty(),
              prefix + ": one lo, hi and mass per duration bin");
  return bins;
}

TypeModel read_type(const FittedParams& params, const std::string& prefix, model::JobType type) {
  TypeModel t;
  t.type = type;
  t.count_share = params.number(prefix + ".count_share");
  for (double g : params.numbers(prefix + ".gpus")) {
    t.gpus.push_back(static_cast<std::uint32_t>(g));
  }
  auto pmf = params.numbers(prefix + ".gpu_pmf");
  ACME_ASSERT(pmf.size() == t.gpus.size(), prefix + ": one probability per GPU count");
  t.gpu_dist = DiscreteDistribution(pmf);
  t.bins = read_bins(params, prefix);
  for (std::uint32_t g : t.gpus) {
    auto given = params.numbers(prefix + ".bins_given_gpus." + std::to_string(g));
    ACME_ASSERT(given.size() == t.bins.lo_s.size(), prefix + ": one probability per duration bin");
    t.bins_given_gpus.emplace_back(given);
  }
  return t;
}

} // namespace

DiscreteDistribution::DiscreteDistribution(const std::vector<double>& weights) {
  double total = 0.0;
  for (double w : weights) {
    ACME_ASSERT(w >= 0.0 && std::isfinite(w), "probabilities are finite and non-negative");
    total += w;
    cumulative_.push_back(total);
  }
  ACME_ASSERT(total > 0.0, "a distribution needs positive mass");
  for (double& c : cumulative_) {
    c /= total;
  }
  cumulative_.back() = 1.0;
}

std::size_t DiscreteDistribution::pick(double u) const {
  auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), u);
  return std::min(static_cast<std::size_t>(it - cumulative_.begin()), cumulative_.size() - 1);
}

double DiscreteDistribution::probability(std::size_t index) const {
  return cumulative_.at(index) - (index == 0 ? 0.0 : cumulative_[index - 1]);
}

double DurationBins::at(std::size_t bin, double u) const {
  double lo = lo_s[bin];
  double hi = hi_s[bin];
  double value = lo <= 0.0 ? hi * u : lo * std::pow(hi / lo, u);
  // Whole seconds, inside (lo, hi]: the grid's CDF values are kept exactly.
  return std::clamp(std::ceil(value), std::floor(lo) + 1.0, std::max(std::floor(hi), std::floor(lo) + 1.0));
}

const TypeModel* ClusterModel::find(model::JobType type) const {
  for (const auto& t : types) {
    if (t.type == type) {
      return &t;
    }
  }
  return nullptr;
}

std::vector<std::string> preset_cluster_names() {
  return {"seren", "kalos"};
}

ClusterModel load_cluster_model(const FittedParams& params, const std::string& cluster) {
  ClusterModel m;
  m.name = cluster;
  m.gpu_jobs = params.number(cluster + ".gpu_jobs");
  m.cpu_jobs = params.number(cluster + ".cpu_jobs");
  m.period_days = params.number(cluster + ".period_days");
  ACME_ASSERT(m.period_days > 0.0, cluster + ": the period of the counts is positive");
  m.max_run_time_s = params.number(cluster + ".max_run_time_s");
  m.gpu_time_per_gpu_job_s = params.number(cluster + ".gpu_time_per_gpu_job_s");
  for (const auto& [type, key] : TYPE_KEYS) {
    std::string prefix = cluster + "." + key;
    if (params.has(prefix + ".count_share")) {
      m.types.push_back(read_type(params, prefix, type));
    }
  }
  auto cancel = params.numbers(cluster + ".state.cancel_logit");
  auto fail = params.numbers(cluster + ".state.early_fail_logit");
  ACME_ASSERT(cancel.size() == 2 && fail.size() == 2, cluster + ": state logits have two coefficients");
  m.state = StateModel{cancel[0],
                       cancel[1],
                       fail[0],
                       fail[1],
                       params.number(cluster + ".state.infra_hazard_per_gpu_s"),
                       params.number(cluster + ".state.infra_base")};
  m.cpu.bins = read_bins(params, cluster + ".cpu");
  m.cpu.bin_dist = DiscreteDistribution(m.cpu.bins.mass);
  auto rates = params.numbers(cluster + ".cpu.state_shares");
  ACME_ASSERT(rates.size() == 3, cluster + ": CPU state shares are completed, cancelled, failed");
  double total = rates[0] + rates[1] + rates[2];
  m.cpu.completed = rates[0] / total;
  m.cpu.cancelled = rates[1] / total;
  m.cpu.failed = rates[2] / total;
  const TypeModel* pretrain = m.find(model::JobType::PRETRAIN);
  ACME_ASSERT(pretrain != nullptr, cluster + ": the parameter file describes pretraining jobs");
  auto runs = params.numbers(cluster + ".pretrain.run_gpu_pmf");
  ACME_ASSERT(runs.size() == pretrain->gpus.size(), cluster + ": one run probability per pretraining GPU count");
  m.pretrain_run_gpus = DiscreteDistribution(runs);
  m.pretrain_attempts_per_run = params.number(cluster + ".pretrain.attempts_per_run");
  return m;
}

} // namespace acme::workloads::synthetic
