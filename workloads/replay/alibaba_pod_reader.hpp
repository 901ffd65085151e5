#pragma once

#include <string>

#include "workloads/replay/csv_trace_reader.hpp"

namespace acme::workloads {

/// Streams the pod list of Alibaba cluster-trace-gpu-v2023 (Weng et al., ATC'23 "Beware of
/// Fragmentation"; data/traces/alibaba_openb_pod_list_default.csv): `name,cpu_milli,memory_mib,num_gpu,
/// gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time`, columns matched by
/// name, times in seconds from the trace's start. The platform is the trace's node list (cluster key
/// `nodes_from:`, see sim/config).
/// Mapping to a job (times in trace seconds, epoch 0):
///   - submit_time_s = creation_time; recorded_start_s = scheduled_time; duration_s = deletion_time -
///     scheduled_time (service time);
///   - num_gpu = 1 with gpu_milli < 1000: a fractional job (gpus 1, gpu_milli) that shares one GPU with
///     others, never beyond 1000 milli per GPU; num_gpu >= 1 with gpu_milli 1000: whole GPUs; num_gpu 0
///     (gpu_milli 0): a CPU job of ceil(cpu_milli / 1000) cores from the cluster's CPU pool. gpu_milli
///     below 1000 with num_gpu > 1 is a bad row (sharing is within one GPU);
///   - pod_phase Succeeded: COMPLETED; Failed: FAILED; Running: COMPLETED, served until its deletion_time
///     (a pod still running when the trace was taken carries the trace's last time there, so its service
///     is censored at the trace end); Pending: never scheduled, so no service time: not replayed, counted
///     in pending_pods() and in skipped_rows() (summary.json `trace_rows_skipped`);
///   - user = the qos class (LS, BE, Burstable, Guaranteed: the trace has no users); type OTHER; name =
///     the pod name. cpu_milli and memory_mib of GPU pods and gpu_spec are not modelled (no per-node CPU,
///     memory or GPU-model accounting).
class AlibabaPodReader final : public CsvTraceReader {
public:
  explicit AlibabaPodReader(const TraceFile& file);

  /// Malformed rows skipped plus Pending pods (not replayed).
  std::uint64_t skipped_rows() const override { return TraceReader::skipped_rows() + pending_; }
  std::uint64_t pending_pods() const { return pending_; }

private:
  /// The pod as a job, or nullopt for a Pending pod.
  std::optional<model::JobSpec> parse_row() override;
  const char* id_column() const override { return "name"; }
  std::uint32_t gpu_milli(std::uint32_t gpus) const;
  double time(std::size_t c) const;
  std::uint32_t count(std::size_t c) const;

  std::uint64_t pending_ = 0;
};

} // namespace acme::workloads
