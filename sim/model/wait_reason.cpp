#include "sim/model/wait_reason.hpp"

#include <array>

namespace acme::model {

std::string_view to_string(WaitReason reason) {
  static constexpr std::array<std::string_view, WAIT_REASON_COUNT> NAMES = {"None",
                                                                            "Priority",
                                                                            "Resources",
                                                                            "QOSMaxJobsPerUserLimit",
                                                                            "QOSMaxGRESPerUser",
                                                                            "QOSGrpGRES",
                                                                            "PartitionConfig",
                                                                            "Quota",
                                                                            "Preemption",
                                                                            "SchedulerQueue",
                                                                            "ImagePull",
                                                                            "PodStart",
                                                                            "AssocGrpGRES",
                                                                            "AssocMaxJobsLimit"};
  return NAMES[static_cast<std::size_t>(reason)];
}

} // namespace acme::model
