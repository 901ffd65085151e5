#pragma once

#include <cstdint>
#include <vector>

#include "sim/model/job.hpp"

namespace acme::tools {

/// A synthetic job stream shaped like Seren's (Hu et al., NSDI'24): evaluation jobs of one GPU
/// submitted in batches, many small debug and other jobs, SFT jobs of one to four nodes and a few long
/// pretraining jobs of 8 to 64 nodes that hold most of the GPU time. Submissions are spaced so that
/// the offered load is `load` times the cluster's GPUs, which keeps thousands of jobs queued after
/// evaluation batches. Deterministic for a seed.
std::vector<model::JobSpec> make_bench_workload(std::uint64_t seed, std::size_t jobs, std::uint32_t cluster_gpus,
                                                double load);

} // namespace acme::tools
