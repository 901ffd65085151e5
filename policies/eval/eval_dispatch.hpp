#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/model/ids.hpp"
#include "sim/model/job.hpp"
#include "sim/model/units.hpp"

namespace acme::policies {

/// One evaluation dataset as the catalogue describes it (configs/eval/datasets.csv): the phases of a
/// trial that evaluates a 7B model on it on one A100.
struct EvalDataset {
  std::string name;
  std::string category;
  std::uint32_t index = 0; ///< row in its catalogue (JobSpec::dataset of the jobs that evaluate it)
  std::uint32_t samples = 0;
  double preprocess_s = 0.0; ///< load and tokenise the data (CPU; a coupled trial holds its GPU meanwhile)
  double inference_s = 0.0;  ///< GPU inference of a REFERENCE_MODEL_PARAMS model on one GPU
  double metric_s = 0.0;     ///< metric computation (code execution, judge scoring); no GPU needed
};

/// Model size the catalogue's inference times are given for: 7B parameters (the paper's study model).
inline constexpr double REFERENCE_MODEL_PARAMS = 7e9;
/// A100-SXM-80GB memory (NVIDIA datasheet), when the cluster does not say.
inline constexpr double DEFAULT_EVAL_GPU_MEMORY_BYTES = 80.0 * model::GIB_BYTES;
/// Paper: 16 CPU cores per GPU (data/README.md).
inline constexpr std::uint32_t DEFAULT_EVAL_CPUS_PER_GPU = 16;

/// The cluster a request runs on, as far as dispatch needs it.
struct EvalClusterShape {
  model::ClusterId id{};
  std::uint32_t gpus_per_node = 8;
  std::uint32_t nodes = 1; ///< nodes of the cluster
  double gpu_memory_bytes = DEFAULT_EVAL_GPU_MEMORY_BYTES;
  std::uint32_t cpus_per_gpu = DEFAULT_EVAL_CPUS_PER_GPU;
  double storage_read_Bps = 0.0; ///< one node's path to remote storage (estimates only; 0: unknown)
};

/// An evaluation request: one model checkpoint evaluated on a list of datasets. Every job made for it
/// carries `batch` as JobSpec::eval_batch, so its feedback latency (first submission to last end,
/// metrics included) is measured per request.
struct EvalRequest {
  std::uint64_t batch = 0; ///< non-zero
  std::string name;        ///< prefix of the jobs' names (no commas)
  model::UserId user{};
  double submit_time_s = 0.0;
  double model_params = 0.0; ///< parameters of the evaluated model (0: unknown, taken as 7B)
  std::vector<EvalDataset> datasets;
  std::uint32_t nodes = 1; ///< nodes a node-level policy may spread the request over
  EvalClusterShape cluster;
};

/// Turns an evaluation request into the jobs that carry it out: "request in, jobs out". The jobs go
/// through the cluster's scheduler like any other job. Pure: no state, no randomness, no I/O.
class EvalDispatch {
public:
  virtual ~EvalDispatch() = default;
  /// Jobs to submit at `request.submit_time_s`, in submission order. Each has cluster, user, type
  /// EVAL, eval_batch, dataset, GPUs, CPUs, model_params, a name, a runtime estimate in duration_s and
  /// a task plan; `id` is left for the caller. Follow-up jobs (metric jobs) live inside the plans.
  virtual std::vector<model::JobSpec> dispatch(const EvalRequest& request) const = 0;
  /// GPUs one trial of `request` needs (its model's weights must fit).
  virtual std::uint32_t gpus_per_trial(const EvalRequest& request) const = 0;
};

} // namespace acme::policies
