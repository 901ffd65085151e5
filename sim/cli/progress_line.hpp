#pragma once

#include <chrono>

#include "sim/engine/simulation.hpp"

namespace acme::cli {

/// The "simulated 2023-04-12, 123,456 jobs done" line on a terminal's stderr, redrawn at most a few
/// times a second; silent when stderr is not a terminal or with --quiet.
class ProgressLine {
public:
  explicit ProgressLine(bool enabled) : enabled_(enabled), start_(std::chrono::steady_clock::now()) {}
  void update(const engine::Progress& progress);
  void clear();

private:
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_{};
};

} // namespace acme::cli
