#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "sim/engine/simulation.hpp"

namespace acme::cli {

/// `--max-time DURATION` and `--max-memory SIZE`: a run that passes either stops with a ConfigError naming
/// the option (exit code 2); its output folder keeps what it held (nothing is committed). Checked with the
/// progress callback, every 50 ms of wall-clock time (at the end of a simulated instant).
class RunGuard {
public:
  /// Parses the options' texts ("10min", "4GiB"); throws ConfigError naming the option when malformed.
  RunGuard(std::optional<std::string> max_time, std::optional<std::string> max_memory);

  /// Throws ConfigError when the run has used more wall-clock time or memory than allowed.
  void check(const engine::Progress& progress) const;
  bool active() const { return max_time_s_ > 0.0 || max_memory_bytes_ > 0.0; }

private:
  std::string time_option_;
  std::string memory_option_;
  double max_time_s_ = 0.0;       ///< 0: no limit
  double max_memory_bytes_ = 0.0; ///< 0: no limit
  std::chrono::steady_clock::time_point start_;
};

/// Resident memory of this process in bytes (Linux /proc/self/statm); 0 when unknown.
double resident_bytes();

} // namespace acme::cli
