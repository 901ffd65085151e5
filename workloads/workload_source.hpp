#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "policies/eval/eval_dispatch.hpp"
#include "policies/registry.hpp"
#include "sim/config/config.hpp"
#include "sim/model/job.hpp"
#include "sim/model/name_table.hpp"

namespace acme::workloads {

/// A stream of jobs in submission order. Readers stream their files: a million-row trace is never
/// held in memory twice.
class WorkloadSource {
public:
  virtual ~WorkloadSource() = default;
  /// The next job, with submit_time_s not smaller than the previous one's; nullopt at the end.
  /// Times are seconds since `epoch_unix_s()`. `id` is left for the caller to assign.
  /// Throws ConfigError (file:line, column) on a malformed row.
  virtual std::optional<model::JobSpec> next() = 0;
  /// Unix time of simulated time 0.
  virtual double epoch_unix_s() const = 0;
  /// Rows skipped as malformed (with `on_bad_row: skip`).
  virtual std::uint64_t skipped_rows() const { return 0; }
  /// Seconds after the epoch over which jobs are submitted, when known before the run (a synthetic
  /// workload's days); 0 when unknown (a trace is read as it goes). The progress line's share and ETA.
  virtual double span_s() const { return 0.0; }
};

/// What to do with a malformed trace row.
enum class BadRowPolicy : std::uint8_t { ERROR, SKIP };

/// Everything a workload needs from the run besides its own config section. The caller owns all of it:
/// workloads keep no registry or platform knowledge of their own.
struct WorkloadContext {
  /// `{&config, &users}` for a workload without evaluation (a constructor, so that shorter brace lists stay
  /// free of -Wmissing-field-initializers).
  WorkloadContext(const config::Config* config_in, model::NameTable* users_in,
                  const policies::Registry<policies::EvalDispatch>* eval_dispatches_in = nullptr,
                  std::vector<policies::EvalClusterShape> eval_clusters_in = {})
      : config(config_in)
      , users(users_in)
      , eval_dispatches(eval_dispatches_in)
      , eval_clusters(std::move(eval_clusters_in)) {}

  const config::Config* config = nullptr;
  model::NameTable* users = nullptr;
  /// Dispatch policies of evaluation requests (`kind: eval_request`, the `evaluation:` section); may stay null
  /// for a config that asks for neither.
  const policies::Registry<policies::EvalDispatch>* eval_dispatches = nullptr;
  /// What dispatch knows of each cluster, by cluster id (eval::eval_cluster_shapes derives it from the
  /// platform config); needed with eval_dispatches.
  std::vector<policies::EvalClusterShape> eval_clusters;
};

/// Builds the source the config's `workload:` section describes (trace readers, generators),
/// merged across clusters and with dense job ids in submission order.
std::unique_ptr<WorkloadSource> make_workload(const WorkloadContext& context);

} // namespace acme::workloads
