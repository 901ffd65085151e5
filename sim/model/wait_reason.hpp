#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace acme::model {

/// Why a queued job is not running, as the real schedulers name it (Slurm's job reason codes, and
/// Kubernetes/Kueue states for Kalos). Schedulers note it for the jobs they examine (NoteWait); the
/// engine notes the states it owns (pod start, image pull); every second a job waits counts against
/// its reason at that time.
enum class WaitReason : std::uint8_t {
  NONE,                    ///< not yet examined by a scheduling pass (Slurm "None")
  PRIORITY,                ///< jobs of higher priority go first, or the pass did not reach it (Slurm "Priority")
  RESOURCES,               ///< examined: the GPUs it needs are not free (Slurm "Resources")
  QOS_MAX_JOBS_PER_USER,   ///< its user runs the QoS's MaxJobsPerUser (Slurm "QOSMaxJobsPerUserLimit")
  QOS_MAX_GPUS_PER_USER,   ///< its user holds the QoS's MaxTRESPerUser GPUs (Slurm "QOSMaxGRESPerUser")
  QOS_GRP_GPUS,            ///< its QoS holds its GrpTRES GPUs (Slurm "QOSGrpGRES")
  PARTITION_GPUS_PER_USER, ///< its user holds the partition's MaxTRESPerUser GPUs (Slurm "PartitionConfig")
  QUOTA,                   ///< its queue's quota (and what borrowing allows) is used up (Kueue "insufficient quota")
  PREEMPTION,              ///< the jobs preempted for it are still leaving
  SCHEDULER_QUEUE,         ///< admitted, waiting for the pod scheduler to bind its pods (kube-scheduler)
  IMAGE_PULL,              ///< allocated: pulling its container image on a node that has not run it
  POD_START,               ///< allocated: its pods are starting (container creation)
  ASSOC_GRP_GPUS,          ///< its user holds the association's GrpTRES GPUs (Slurm "AssocGrpGRES")
  ASSOC_MAX_JOBS,          ///< its user runs the association's MaxJobs (Slurm "AssocMaxJobsLimit")
};
inline constexpr std::size_t WAIT_REASON_COUNT = 14;

/// "None", "Priority", "Resources", "QOSMaxJobsPerUserLimit", "QOSMaxGRESPerUser", "QOSGrpGRES",
/// "PartitionConfig", "Quota", "Preemption", "SchedulerQueue", "ImagePull", "PodStart", "AssocGrpGRES",
/// "AssocMaxJobsLimit"
std::string_view to_string(WaitReason reason);

} // namespace acme::model
