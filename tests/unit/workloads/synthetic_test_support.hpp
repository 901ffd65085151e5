#pragma once

#include <string>
#include <vector>

#include "sim/config/config.hpp"
#include "workloads/synthetic/cluster_generator.hpp"
#include "workloads/synthetic/synthetic_options.hpp"

namespace acme::test {

/// A config with Acme's two clusters (small) whose `workload:` section is `workload` (YAML lines,
/// indented by two spaces).
inline config::Config synthetic_config(const std::string& workload) {
  std::string text = "seed: 5\n"
                     "clusters:\n"
                     "  - {name: seren, utc_offset: \"+08:00\", nodes: 4, gpus_per_node: 8, cpu_cores_per_node: 128,\n"
                     "     cpu_job_cores_per_node: 32, network: {nodes_per_leaf: 2}}\n"
                     "  - {name: kalos, utc_offset: \"UTC\", nodes: 4, gpus_per_node: 8, cpu_cores_per_node: 128,\n"
                     "     cpu_job_cores_per_node: 32, network: {nodes_per_leaf: 2}}\n"
                     "workload:\n" +
                     workload;
  return config::load_config_text(text, "synthetic_test.yaml", "");
}

/// Every job the generator of `cluster` ("seren" or "kalos") makes for the config's synthetic workload.
inline std::vector<workloads::synthetic::GeneratedJob> generate_cluster(const config::Config& cfg,
                                                                        const std::string& cluster) {
  namespace syn = workloads::synthetic;
  auto options = syn::parse_synthetic_options(cfg, cfg.workload);
  syn::FittedParams params(syn::acme_params_text(), "acme_params.txt");
  model::NameTable names;
  std::vector<syn::GeneratedJob> jobs;
  for (const auto& plan : options.clusters) {
    if (plan.name != cluster) {
      continue;
    }
    syn::ClusterGenerator generator(syn::load_cluster_model(params, plan.preset), plan, options, names);
    while (auto job = generator.next()) {
      jobs.push_back(std::move(*job));
    }
  }
  return jobs;
}

/// The fitted model of a preset cluster.
inline workloads::synthetic::ClusterModel preset_model(const std::string& cluster) {
  namespace syn = workloads::synthetic;
  return syn::load_cluster_model(syn::FittedParams(syn::acme_params_text(), "acme_params.txt"), cluster);
}

} // namespace acme::test
