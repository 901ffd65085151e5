#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "sim/model/ids.hpp"
#include "sim/model/task_plan.hpp"
#include "sim/model/units.hpp"

namespace acme::model {

/// Workload type as the Acme paper classifies jobs (AcmeTrace `type` column).
enum class JobType : std::uint8_t { PRETRAIN, SFT, MLLM, EVAL, DEBUG, OTHER };
inline constexpr std::size_t JOB_TYPE_COUNT = 6;
inline constexpr std::array<JobType, JOB_TYPE_COUNT> ALL_JOB_TYPES = {
    JobType::PRETRAIN, JobType::SFT, JobType::MLLM, JobType::EVAL, JobType::DEBUG, JobType::OTHER};

/// Final state of a job (AcmeTrace `state` column). TIMEOUT and NODE_FAIL count as failed.
enum class JobState : std::uint8_t { COMPLETED, CANCELLED, FAILED, TIMEOUT, NODE_FAIL };
inline constexpr std::size_t JOB_STATE_COUNT = 5;

/// Why a job failed (paper §5: infrastructure vs framework vs script errors).
enum class FailureCategory : std::uint8_t { NONE, INFRASTRUCTURE, FRAMEWORK, SCRIPT };

/// A GPU shared by fractional jobs holds at most this many milli-GPUs (Alibaba cluster-trace-gpu-v2023
/// `gpu_milli`: 1000 = one whole GPU).
inline constexpr std::uint32_t MILLI_PER_GPU = 1000;

/// Why a job was rejected at submission instead of being queued.
enum class RejectReason : std::uint8_t { NONE, TOO_MANY_GPUS, TOO_MANY_CPUS, BY_POLICY, MODEL_TOO_LARGE };

std::string_view to_string(JobType type);
/// The type as AcmeTrace spells it in its job traces ("Eval" for evaluation jobs; the other types are
/// spelled as to_string does). Written in jobs.csv and generated traces so that the authors' analysis
/// notebook, which selects `type == "Eval"`, finds the evaluation jobs.
std::string_view acmetrace_name(JobType type);
std::string_view to_string(JobState state);
std::string_view to_string(RejectReason reason);
std::string_view to_string(FailureCategory category);
/// Accepts the trace spellings: "Pretrain", "SFT", "MLLM", "Evaluation"/"Eval", "Debug", "Other".
std::optional<JobType> parse_job_type(std::string_view text);
/// Accepts "COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL".
std::optional<JobState> parse_job_state(std::string_view text);

constexpr bool counts_as_failed(JobState s) {
  return s == JobState::FAILED || s == JobState::TIMEOUT || s == JobState::NODE_FAIL;
}

/// One job as the workload describes it. Plain data: the engine keeps its run-time state elsewhere.
struct JobSpec {
  JobId id{};                                 ///< dense, in submission order
  ClusterId cluster{};                        ///< the cluster it is submitted to
  UserId user{};                              ///< interned user name
  JobType type = JobType::OTHER;              ///< workload type
  JobState final_state = JobState::COMPLETED; ///< how the job ends when nothing else intervenes
  std::uint32_t gpus = 0;                     ///< GPUs requested (0: CPU job)
  std::uint32_t gpu_milli = MILLI_PER_GPU;    ///< share of each GPU; < 1000 only with gpus == 1 (a shared GPU)
  std::uint32_t nodes = 0;                    ///< nodes requested (0: derived from gpus)
  std::uint32_t cpus = 0;                     ///< CPU cores requested
  double submit_time_s = 0.0;                 ///< seconds since the run's epoch
  double duration_s = 0.0;                    ///< service time: how long it runs once started
  double recorded_start_s = UNKNOWN_TIME_S;   ///< start time recorded by the trace, if any
  double requested_time_s = UNKNOWN_TIME_S;   ///< wall-time limit requested, if any
  RunId run{};                                ///< logical run its attempts share; 0: none (own run)
  std::uint16_t attempt = 1;                  ///< attempt number within the run, from 1
  /// With a run: the next attempt is submitted this long after this one's predecessor in the run ends
  /// (the engine holds it back while that one is still active; sim/core/attempt_chain.hpp); negative:
  /// submitted at submit_time_s whatever the run's other attempts do.
  double resubmit_delay_s = UNKNOWN_TIME_S;
  double model_params = 0.0;                       ///< model parameters (count), 0 when unknown
  std::uint32_t tp_degree = 0;                     ///< tensor-parallel degree, 0 when unknown (layout rules decide)
  std::uint32_t pp_degree = 0;                     ///< pipeline-parallel degree, 0 when unknown
  FailureCategory failure = FailureCategory::NONE; ///< cause, when final_state counts as failed
  std::string name;                                ///< job id as written in the trace
  std::uint64_t eval_batch = 0;                    ///< evaluation request (model checkpoint) it belongs to; 0: none
  /// Set by a workload for a job that can never run (its model does not fit its GPUs' memory): the job is
  /// rejected with this reason when submitted, like a job wider than its cluster.
  RejectReason unfit = RejectReason::NONE;
  std::uint32_t dataset = 0;            ///< evaluation dataset index within the catalogue
  std::shared_ptr<const TaskPlan> plan; ///< phases to run (evaluation); null: plain computation

  bool is_cpu_job() const { return gpus == 0; }
  /// Takes a fraction of one GPU that other fractional jobs may share.
  bool is_fractional() const { return gpus > 0 && gpu_milli < MILLI_PER_GPU; }
  /// GPUs it holds, counting a fractional job as gpu_milli / 1000 (GPU-seconds = this x time).
  double gpu_share() const {
    return is_fractional() ? static_cast<double>(gpu_milli) / MILLI_PER_GPU : static_cast<double>(gpus);
  }
  double recorded_queue_s() const {
    return recorded_start_s == UNKNOWN_TIME_S ? UNKNOWN_TIME_S : recorded_start_s - submit_time_s;
  }

  friend bool operator==(const JobSpec&, const JobSpec&) = default;
};

/// Nodes a GPU job occupies on nodes of `gpus_per_node` GPUs: jobs of up to one node share a node,
/// larger jobs take whole nodes (gang placement).
constexpr std::uint32_t nodes_needed(std::uint32_t gpus, std::uint32_t gpus_per_node) {
  if (gpus == 0) {
    return 0;
  }
  return (gpus + gpus_per_node - 1) / gpus_per_node;
}

} // namespace acme::model
