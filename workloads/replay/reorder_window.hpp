#pragma once

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/model/job.hpp"

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
  /// Heap entries are small; the jobs stay in `slots_` (moved once in, once out).
  struct Entry {
    double submit_s = 0.0;
    std::uint64_t sequence = 0;
    std::uint32_t slot = 0;
  };
  /// Heap order: the earliest submission (then the earliest row) on top.
  static bool later(const Entry& a, const Entry& b) {
    return a.submit_s > b.submit_s || (a.submit_s == b.submit_s && a.sequence > b.sequence);
  }

  std::string path_;
  std::vector<Entry> heap_;
  std::vector<model::JobSpec> slots_;
  std::vector<std::uint32_t> free_slots_;
  std::uint64_t sequence_ = 0;
  double last_emitted_s_ = -1e300;
  bool exhausted_ = false;
};

} // namespace acme::workloads
