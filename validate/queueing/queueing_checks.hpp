#pragma once

#include <string>

#include "validate/scenario_run.hpp"

namespace acme::validate {

/// `acme-sim validate queueing [CONFIG]`: runs CONFIG (the default Acme config when empty) and compares
/// its queueing delays with the paper's: per cluster and job type the CDF at 1 s, 60 s and 1 h, the median,
/// p90 and the KS distance on the 2^0..2^15 s grid for every curve data/acme provides
/// (cdf_job_duration_queue_{b_seren,d_kalos}_queue_*.csv); the cluster-level mean and median delay of GPU
/// and CPU jobs against Table 2 (cluster_summary.csv); and the paper's finding that Seren's evaluation
/// jobs wait longest of all types. Fails (exit 1) when a KS distance exceeds 0.10, a Table 2 mean is off by
/// more than 35% or a median by more than 2x (and more than 2 s). The simulated curves of the types the
/// paper's data leaves out (evaluation, MLLM, other) are printed for comparison with the figures, and
/// the means that rare long waits dominate are printed for seeds 1 to 5 (the checks use seed 1).
int check_queueing(const ValidationContext& ctx, const std::string& config_path);

} // namespace acme::validate
