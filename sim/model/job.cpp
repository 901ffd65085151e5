#include "sim/model/job.hpp"

namespace acme::model {

std::string_view to_string(JobType type) {
  switch (type) {
  case JobType::PRETRAIN:
    return "Pretrain";
  case JobType::SFT:
    return "SFT";
  case JobType::MLLM:
    return "MLLM";
  case JobType::EVAL:
    return "Evaluation";
  case JobType::DEBUG:
    return "Debug";
  case JobType::OTHER:
    return "Other";
  }
  return "Other";
}

std::string_view acmetrace_name(JobType type) {
  return type == JobType::EVAL ? "Eval" : to_string(type);
}

std::string_view to_string(JobState state) {
  switch (state) {
  case JobState::COMPLETED:
    return "COMPLETED";
  case JobState::CANCELLED:
    return "CANCELLED";
  case JobState::FAILED:
    return "FAILED";
  case JobState::TIMEOUT:
    return "TIMEOUT";
  case JobState::NODE_FAIL:
    return "NODE_FAIL";
  }
  return "FAILED";
}

std::string_view to_string(RejectReason reason) {
  switch (reason) {
  case RejectReason::NONE:
    return "";
  case RejectReason::TOO_MANY_GPUS:
    return "more GPUs than the cluster has";
  case RejectReason::TOO_MANY_CPUS:
    return "more CPU cores than the CPU pool has";
  case RejectReason::BY_POLICY:
    return "rejected by the scheduling policy";
  case RejectReason::MODEL_TOO_LARGE:
    return "a model larger than the memory of the GPUs it may use";
  }
  return "";
}

std::string_view to_string(FailureCategory category) {
  switch (category) {
  case FailureCategory::NONE:
    return "";
  case FailureCategory::INFRASTRUCTURE:
    return "infrastructure";
  case FailureCategory::FRAMEWORK:
    return "framework";
  case FailureCategory::SCRIPT:
    return "script";
  }
  return "";
}

std::optional<JobType> parse_job_type(std::string_view text) {
  if (text == "Pretrain") {
    return JobType::PRETRAIN;
  }
  if (text == "SFT") {
    return JobType::SFT;
  }
  if (text == "MLLM") {
    return JobType::MLLM;
  }
  if (text == "Evaluation" || text == "Eval") {
    return JobType::EVAL;
  }
  if (text == "Debug") {
    return JobType::DEBUG;
  }
  if (text == "Other") {
    return JobType::OTHER;
  }
  return std::nullopt;
}

std::optional<JobState> parse_job_state(std::string_view text) {
  for (std::size_t i = 0; i < JOB_STATE_COUNT; ++i) {
    auto state = static_cast<JobState>(i);
    if (text == to_string(state)) {
      return state;
    }
  }
  return std::nullopt;
}

} // namespace acme::model
