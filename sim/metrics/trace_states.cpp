#include "sim/metrics/trace_states.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "sim/model/text_escape.hpp"
#include "sim/model/units.hpp"

namespace acme::metrics {
namespace {
double share(double part, double whole) {
  return whole > 0.0 ? part / whole : 0.0;
}
} // namespace

TraceStates::TraceStates(std::vector<std::string> categories)
    : categories_(std::move(categories))
    , infra_gpu_s_(categories_.size() + 1, 0.0) {}

void TraceStates::add_rows(model::JobState state, std::uint64_t rows, double gpu_s) {
  rows_ += rows;
  gpu_s_ += gpu_s;
  if (state == model::JobState::CANCELLED) {
    cancelled_rows_ += rows;
    cancelled_gpu_s_ += gpu_s;
  } else if (model::counts_as_failed(state)) {
    failed_rows_ += rows;
    failed_gpu_s_ += gpu_s;
  }
}

void TraceStates::add(const JobRecord& r) {
  if (r.reject != model::RejectReason::NONE || r.spec->is_cpu_job()) {
    return;
  }
  const FailedAttempts& cut = r.failed_attempts;
  double cut_gpu_s = 0.0;
  for (std::size_t c = 0; c < cut.count.size() && c < categories_.size(); ++c) {
    add_rows(model::JobState::FAILED, cut.count[c], cut.gpu_s[c]);
    infra_rows_ += cut.count[c];
    restart_rows_ += cut.count[c];
    infra_gpu_s_[c] += cut.gpu_s[c];
    cut_gpu_s += cut.gpu_s[c];
  }
  double own_gpu_s = std::max(0.0, r.gpu_seconds - cut_gpu_s);
  add_rows(r.state, 1, own_gpu_s);
  if (!model::counts_as_failed(r.state)) {
    return;
  }
  if (cut.end_category >= 0 && static_cast<std::size_t>(cut.end_category) < categories_.size()) {
    ++infra_rows_;
    infra_gpu_s_[static_cast<std::size_t>(cut.end_category)] += own_gpu_s;
  } else if (r.spec->failure == model::FailureCategory::INFRASTRUCTURE || r.state == model::JobState::NODE_FAIL) {
    ++infra_rows_;
    ++drawn_rows_;
    infra_gpu_s_.back() += own_gpu_s;
  }
}

std::string TraceStates::render() const {
  double infra_gpu_s = 0.0;
  std::string by_category;
  for (std::size_t c = 0; c < infra_gpu_s_.size(); ++c) {
    infra_gpu_s += infra_gpu_s_[c];
  }
  for (std::size_t c = 0; c < infra_gpu_s_.size(); ++c) {
    const std::string& name = c < categories_.size() ? categories_[c] : std::string("drawn");
    by_category +=
        fmt::format("{}{}: {}", c == 0 ? "" : ", ", model::json_quote(name), share(infra_gpu_s_[c], infra_gpu_s));
  }
  constexpr double H = model::SECONDS_PER_HOUR;
  return fmt::format(
      R"("trace_states": {{"rows": {}, "restart_rows": {}, "cancelled_rows": {}, "failed_rows": {}, )"
      R"("infrastructure_rows": {}, "drawn_infrastructure_rows": {}, "gpu_hours": {}, "cancelled_gpu_hours": {}, "failed_gpu_hours": {}, )"
      R"("infrastructure_gpu_hours": {}, "failed_share": {}, "failed_gpu_time_share": {}, )"
      R"("infrastructure_share_of_failed": {}, "infrastructure_share_of_failed_gpu_time": {}, )"
      R"("infrastructure_gpu_time_by_category": {{{}}}}})",
      rows_, restart_rows_, cancelled_rows_, failed_rows_, infra_rows_, drawn_rows_, gpu_s_ / H, cancelled_gpu_s_ / H,
      failed_gpu_s_ / H, infra_gpu_s / H, share(static_cast<double>(failed_rows_), static_cast<double>(rows_)),
      share(failed_gpu_s_, gpu_s_), share(static_cast<double>(infra_rows_), static_cast<double>(failed_rows_)),
      share(infra_gpu_s, failed_gpu_s_), by_category);
}

} // namespace acme::metrics
