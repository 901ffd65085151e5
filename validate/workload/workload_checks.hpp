#pragma once

#include <cstdint>

#include "sim/config/config.hpp"

namespace acme::validate {

/// `acme-sim validate workload`: generates the synthetic workload of `config` (its `workload:` section
/// must have kind: synthetic; ConfigError otherwise) and prints, per cluster, the generated values next
/// to the paper's (data/acme, compiled in), pooling `replicas` runs (seed, seed+1, ...; 0: as many as
/// bring a cluster to 20,000 pretraining jobs). Returns the exit code (0 pass, 1 a check failed).
int check_workload(const config::Config& config, std::uint64_t replicas);

} // namespace acme::validate
