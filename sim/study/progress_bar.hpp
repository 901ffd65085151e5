#pragma once

#include <chrono>
#include <cstddef>

namespace acme::study {

/// "[#######.......] 7/12 points, 1 failed, 3.1 s, ETA 2.7 s" on a terminal's stderr, redrawn at
/// most a few times a second; silent when disabled (not a terminal, or --quiet).
class ProgressBar {
public:
  ProgressBar(bool enabled, std::size_t to_run);
  void point_done(bool ok);
  /// Erases the bar.
  void clear();

private:
  void draw(bool force);

  bool enabled_;
  std::size_t to_run_;
  std::size_t done_ = 0;
  std::size_t failed_ = 0;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_{};
};

} // namespace acme::study
