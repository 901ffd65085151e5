#pragma once

#include "acme/model/job.hpp"

#include <functional>
#include <optional>
#include <queue>
#include <string>
#include <vector>

namespace acme::workloads {

/// Restores submission order for traces that are almost sorted (rows a little out of order, as
/// logs written at job end are): holds up to WINDOW rows and emits the earliest. A row earlier than
/// one already emitted is an error: such a trace needs sorting first.
class ReorderWindow {
public:
  static constexpr std::size_t WINDOW = 4096;

  explicit ReorderWindow(std::string path) : path_(std::move(path)) {}

  std::optional<model::JobSpec> next(const std::function<std::optional<model::JobSpec>()>& read);

private:
  struct Later {
    bool operator()(const std::pair<model::JobSpec, std::uint64_t>& a,
                    const std::pair<model::JobSpec, std::uint64_t>& b) const {
      return a.first.submit_time_s > b.first.submit_time_s ||
             (a.first.submit_time_s == b.first.submit_time_s && a.second > b.second);
    }
  };
  std::string path_;
  std::priority_queue<std::pair<model::JobSpec, std::uint64_t>, std::vector<std::pair<model::JobSpec, std::uint64_t>>,
                      Later>
      heap_;
  std::uint64_t sequence_ = 0;
  double last_emitted_s_ = -1e300;
  bool exhausted_ = false;
};

} // namespace acme::workloads
