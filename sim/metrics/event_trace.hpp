#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/model/decision.hpp"
#include "sim/model/ids.hpp"
#include "sim/model/job.hpp"

namespace acme::metrics {

class AtomicFile;

/// What happened, as the `event` column of events.csv spells it.
enum class TraceEvent : std::uint8_t { SUBMIT, START, END, FAIL, CHECKPOINT, RESTORE, PREEMPT, NODE_DOWN, NODE_UP };

/// "submit", "start", "end", "fail", "checkpoint", "restore", "preempt", "node_down", "node_up"
std::string_view to_string(TraceEvent event);

/// events.csv: one row per job or node event, `time_s,cluster,job,event,nodes,detail`, in the order
/// the engine reports them. `job` is the job's trace id (jobs.csv's job_id), `nodes` a space-separated
/// list of node indices inside the cluster, `detail` free text; cells are CSV-quoted when needed and
/// times printed with six decimals, so the same run gives the same bytes. Rows are buffered and written
/// in large blocks under a temporary name; the file appears only on commit() (never if the run fails).
/// Only receives: every method is one call from the engine and asks nothing back.
class EventTrace {
public:
  /// `cluster_names` in ClusterId order. Throws std::runtime_error when the file cannot be created.
  EventTrace(std::string path, const std::vector<std::string>& cluster_names);
  ~EventTrace();
  EventTrace(const EventTrace&) = delete;
  EventTrace& operator=(const EventTrace&) = delete;

  /// The job entered its cluster's queue (or was rejected right after: end() follows).
  void submit(double time_s, const model::JobSpec& job);
  /// An attempt of the job started on `placement`'s nodes.
  void start(double time_s, const model::JobSpec& job, const model::Placement& placement);
  /// The job left the system: detail is its final state, or the reason it was rejected.
  void end(double time_s, const model::JobSpec& job, model::JobState state,
           model::RejectReason reject = model::RejectReason::NONE);
  /// An attempt failed; `category` is the failure category's name, `nodes` the nodes at fault (if known).
  void fail(double time_s, const model::JobSpec& job, std::string_view category,
            std::span<const model::NodeId> nodes = {});
  /// A checkpoint of the job was persisted (detail e.g. "sync" or "async").
  void checkpoint(double time_s, const model::JobSpec& job, std::string_view detail = {});
  /// The job finished reading a checkpoint back (detail free).
  void restore(double time_s, const model::JobSpec& job, std::string_view detail = {});
  /// The job was stopped and put back in the queue.
  void preempt(double time_s, const model::JobSpec& job, std::string_view detail = {});
  /// A node went down; `reason` is e.g. the failure category or "switch".
  void node_down(double time_s, model::ClusterId cluster, model::NodeId node, std::string_view reason);
  /// A node is back in service (detail e.g. "repaired").
  void node_up(double time_s, model::ClusterId cluster, model::NodeId node, std::string_view detail = {});

  /// Any row; `job` may be empty (node events). The typed methods above are this with fixed columns.
  void row(double time_s, model::ClusterId cluster, std::string_view job, TraceEvent event,
           std::span<const model::NodeId> nodes, std::string_view detail);

  /// Writes what is buffered, syncs and renames the file into place. Throws std::runtime_error on I/O failure.
  void commit();

  std::uint64_t rows() const { return rows_; }
  /// Rows are written up to `max_bytes` of CSV; later rows are counted (dropped_rows) but not written.
  void set_max_bytes(double max_bytes) { max_bytes_ = max_bytes; }
  std::uint64_t dropped_rows() const { return dropped_; }
  /// The simulated time of the first row not written (negative while none was dropped).
  double dropped_from_s() const { return dropped_from_s_; }
  /// Bytes of CSV produced so far, header included.
  std::uint64_t bytes() const { return bytes_flushed_ + buffer_.size(); }

private:
  void begin_row(double time_s, model::ClusterId cluster, std::string_view job, TraceEvent event);
  void end_row(std::string_view detail);
  void append_node(model::NodeId node);
  void flush_if_full();

  std::unique_ptr<AtomicFile> file_;
  std::vector<std::string> clusters_; ///< names, already CSV-quoted where needed
  std::string buffer_;
  std::uint64_t rows_ = 0;
  std::uint64_t bytes_flushed_ = 0;
  double max_bytes_ = 0.0;    ///< 0: no bound
  std::size_t row_start_ = 0; ///< where the row being written began in buffer_
  double row_time_s_ = 0.0;   ///< its time
  std::uint64_t dropped_ = 0; ///< rows past max_bytes_
  double dropped_from_s_ = -1.0;
};

} // namespace acme::metrics
