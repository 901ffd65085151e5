#pragma once

#include <string>

#include "tools/calibrate/backend.hpp"
#include "tools/calibrate/plan.hpp"
#include "tools/calibrate/stats.hpp"

namespace acme::tools::calibrate {

/// What the checkpoint kernel measured.
struct CheckpointResults {
  QuantityLog quantities;         ///< the `checkpoint:` section (bandwidths, fractions)
  QuantityLog timings;            ///< seconds for the measured buffer size (the `timings:` section)
  bool page_cache_dropped = true; ///< every read-back was preceded by a successful page-cache drop
  GemmShape compute_loop_gemm;    ///< the training GEMM as fitted to the copy (fewer rows when needed)
  int compute_loop_gemms = 0;     ///< GEMMs per compute loop of the async-snapshot measurement
};

/// Snapshot copies (pageable, pinned), the async snapshot against the training compute loop, persisting
/// to `file` (serialise, write, fsync) and restoring (read back, verify, host-to-device), `repeats` times.
CheckpointResults run_checkpoint_kernel(Backend& backend, const Plan& plan, std::uint32_t repeats,
                                        const std::string& file);

} // namespace acme::tools::calibrate
