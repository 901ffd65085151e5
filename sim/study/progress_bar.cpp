#include "sim/study/progress_bar.hpp"

#include <cstdio>
#include <string>

namespace acme::study {
namespace {

constexpr std::size_t BAR_WIDTH = 30;
constexpr auto REDRAW = std::chrono::milliseconds(200);
constexpr int LINE_WIDTH = 100; ///< characters erased by clear()

} // namespace

ProgressBar::ProgressBar(bool enabled, std::size_t to_run)
    : enabled_(enabled && to_run > 0)
    , to_run_(to_run)
    , start_(std::chrono::steady_clock::now()) {
  draw(true);
}

void ProgressBar::point_done(bool ok) {
  ++done_;
  failed_ += ok ? 0 : 1;
  draw(done_ == to_run_);
}

void ProgressBar::draw(bool force) {
  if (!enabled_) {
    return;
  }
  auto now = std::chrono::steady_clock::now();
  if (!force && drawn_ && now - last_ < REDRAW) {
    return;
  }
  last_ = now;
  drawn_ = true;
  double elapsed = std::chrono::duration<double>(now - start_).count();
  std::size_t filled = to_run_ == 0 ? BAR_WIDTH : BAR_WIDTH * done_ / to_run_;
  std::string bar = std::string(filled, '#') + std::string(BAR_WIDTH - filled, '.');
  std::string eta = done_ == 0
                        ? "ETA ?"
                        : "ETA " +
                              std::to_string(static_cast<long long>(
                                  elapsed / static_cast<double>(done_) * static_cast<double>(to_run_ - done_) + 0.5)) +
                              " s";
  std::fprintf(stderr, "\r  [%s] %zu/%zu points, %zu failed, %.1f s, %s   ", bar.c_str(), done_, to_run_, failed_,
               elapsed, eta.c_str());
  std::fflush(stderr);
}

void ProgressBar::clear() {
  if (drawn_) {
    std::fprintf(stderr, "\r%*s\r", LINE_WIDTH, "");
    std::fflush(stderr);
    drawn_ = false;
  }
}

} // namespace acme::study
