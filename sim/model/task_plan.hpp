#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace acme::model {

struct JobSpec;

/// One step of a job that the engine runs phase by phase instead of as plain computation: an
/// evaluation trial (load the model, preprocess, infer, compute metrics) or a trial coordinator's
/// node job (pre-load the model once, then trials on every GPU).
struct TaskStep {
  enum class Kind : std::uint8_t {
    STORAGE_READ, ///< `bytes` from the cluster's remote storage to the job's node (contended transfer)
    HOST_COPY,    ///< `bytes` from host memory to each GPU of the lane (PCIe, calibrated bandwidth)
    CPU,          ///< `seconds` of CPU work; the lane's GPU waits
    GPU,          ///< `seconds` of GPU work (inference)
    GPU_IDLE,     ///< `seconds` with the GPU held but idle (metrics computed in the trial)
    SPAWN,        ///< submit `follow_up` (e.g. the metric job of a decoupled trial) now
  };
  Kind kind = Kind::CPU;
  double bytes = 0.0;
  double seconds = 0.0;
  std::shared_ptr<const JobSpec> follow_up;
};

/// Steps run first by the whole job, then lanes in parallel (one per GPU of a node job); the job
/// ends when every lane is done.
struct TaskPlan {
  std::vector<TaskStep> prologue;
  std::vector<std::vector<TaskStep>> lanes;
  std::uint32_t gpus_per_lane = 1;
};

} // namespace acme::model
