#include "sim/metrics/event_trace.hpp"

#include <array>
#include <charconv>

#include "sim/metrics/atomic_file.hpp"
#include "sim/metrics/text_append.hpp"
#include "sim/model/assert.hpp"
#include "sim/model/text_escape.hpp"

namespace acme::metrics {
namespace {

constexpr std::string_view HEADER = "time_s,cluster,job,event,nodes,detail\n";
constexpr std::array<std::string_view, 9> EVENT_NAMES = {"submit",  "start",   "end",       "fail",   "checkpoint",
                                                         "restore", "preempt", "node_down", "node_up"};
/// Rows are handed to the file in blocks of about this size (one write per ~20k rows).
constexpr std::size_t FLUSH_BYTES = std::size_t{1} << 20;
/// Longest row expected in practice; the buffer is reserved with this much room past FLUSH_BYTES.
constexpr std::size_t ROW_SLACK = std::size_t{1} << 12;
constexpr int TIME_DECIMALS = 6;

/// Seconds with a fixed number of decimals: the same double always gives the same text.
void append_time(std::string& out, double time_s) {
  constexpr std::size_t DIGITS = 64;
  char buffer[DIGITS];
  auto [end, ec] = std::to_chars(buffer, buffer + DIGITS, time_s, std::chars_format::fixed, TIME_DECIMALS);
  if (ec != std::errc()) {
    append(out, time_s); // beyond 1e57 s: the shortest exact form, still deterministic
    return;
  }
  out.append(buffer, end);
}

} // namespace

std::string_view to_string(TraceEvent event) {
  return EVENT_NAMES.at(static_cast<std::size_t>(event));
}

EventTrace::EventTrace(std::string path, const std::vector<std::string>& cluster_names)
    : file_(std::make_unique<AtomicFile>(std::move(path))) {
  for (const auto& name : cluster_names) {
    std::string quoted;
    model::append_csv_field(quoted, name);
    clusters_.push_back(std::move(quoted));
  }
  buffer_.reserve(FLUSH_BYTES + ROW_SLACK);
  buffer_.append(HEADER);
}

EventTrace::~EventTrace() = default;

void EventTrace::submit(double time_s, const model::JobSpec& job) {
  row(time_s, job.cluster, job.name, TraceEvent::SUBMIT, {}, {});
}

void EventTrace::start(double time_s, const model::JobSpec& job, const model::Placement& placement) {
  begin_row(time_s, job.cluster, job.name, TraceEvent::START);
  for (std::size_t i = 0; i < placement.size(); ++i) {
    if (i > 0) {
      buffer_ += ' ';
    }
    append_node(placement[i].node);
  }
  end_row({});
}

void EventTrace::end(double time_s, const model::JobSpec& job, model::JobState state, model::RejectReason reject) {
  std::string_view detail = reject == model::RejectReason::NONE ? model::to_string(state) : model::to_string(reject);
  row(time_s, job.cluster, job.name, TraceEvent::END, {}, detail);
}

void EventTrace::fail(double time_s, const model::JobSpec& job, std::string_view category,
                      std::span<const model::NodeId> nodes) {
  row(time_s, job.cluster, job.name, TraceEvent::FAIL, nodes, category);
}

void EventTrace::checkpoint(double time_s, const model::JobSpec& job, std::string_view detail) {
  row(time_s, job.cluster, job.name, TraceEvent::CHECKPOINT, {}, detail);
}

void EventTrace::restore(double time_s, const model::JobSpec& job, std::string_view detail) {
  row(time_s, job.cluster, job.name, TraceEvent::RESTORE, {}, detail);
}

void EventTrace::preempt(double time_s, const model::JobSpec& job, std::string_view detail) {
  row(time_s, job.cluster, job.name, TraceEvent::PREEMPT, {}, detail);
}

void EventTrace::node_down(double time_s, model::ClusterId cluster, model::NodeId node, std::string_view reason) {
  row(time_s, cluster, {}, TraceEvent::NODE_DOWN, std::span<const model::NodeId>(&node, 1), reason);
}

void EventTrace::node_up(double time_s, model::ClusterId cluster, model::NodeId node, std::string_view detail) {
  row(time_s, cluster, {}, TraceEvent::NODE_UP, std::span<const model::NodeId>(&node, 1), detail);
}

void EventTrace::row(double time_s, model::ClusterId cluster, std::string_view job, TraceEvent event,
                     std::span<const model::NodeId> nodes, std::string_view detail) {
  begin_row(time_s, cluster, job, event);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (i > 0) {
      buffer_ += ' ';
    }
    append_node(nodes[i]);
  }
  end_row(detail);
}

void EventTrace::begin_row(double time_s, model::ClusterId cluster, std::string_view job, TraceEvent event) {
  row_start_ = buffer_.size();
  row_time_s_ = time_s;
  append_time(buffer_, time_s);
  buffer_ += ',';
  buffer_.append(clusters_.at(model::to_index(cluster)));
  buffer_ += ',';
  model::append_csv_field(buffer_, job);
  buffer_ += ',';
  buffer_.append(to_string(event));
  buffer_ += ',';
}

void EventTrace::end_row(std::string_view detail) {
  buffer_ += ',';
  model::append_csv_field(buffer_, detail);
  buffer_ += '\n';
  if (dropped_ > 0 || (max_bytes_ > 0.0 && static_cast<double>(bytes()) > max_bytes_)) {
    buffer_.resize(row_start_); // past the bound: counted, not written (the file stays whole rows)
    dropped_from_s_ = dropped_ == 0 ? row_time_s_ : dropped_from_s_;
    ++dropped_;
    return;
  }
  ++rows_;
  flush_if_full();
}

void EventTrace::append_node(model::NodeId node) {
  append(buffer_, std::uint64_t{model::to_index(node)});
}

void EventTrace::flush_if_full() {
  if (buffer_.size() >= FLUSH_BYTES) {
    ACME_ASSERT(file_ != nullptr, "events.csv row after commit");
    file_->write(buffer_);
    bytes_flushed_ += buffer_.size();
    buffer_.clear();
  }
}

void EventTrace::commit() {
  ACME_ASSERT(file_ != nullptr, "events.csv committed twice");
  file_->write(buffer_);
  bytes_flushed_ += buffer_.size();
  buffer_.clear();
  file_->commit();
  file_.reset();
}

} // namespace acme::metrics
