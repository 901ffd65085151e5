#include "policies/python/decision_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "sim/model/error.hpp"

namespace acme::policies::python {
namespace {

/// A job as a message names it: the id its policy sees and the workload's own job_id ("job 0 (job_id 1)").
std::string job_text(const model::JobSpec& job) {
  if (job.name.empty()) {
    return fmt::format("job {}", model::to_index(job.id));
  }
  return fmt::format("job {} (job_id {})", model::to_index(job.id), excerpt(job.name));
}

/// A phase as error messages name it.
std::string phase_name(model::JobPhase phase) {
  return phase == model::JobPhase::HELD ? "held (recovering from a failure)" : model::to_string(phase);
}

std::string check_fraction(const model::JobSpec& job, const model::Placement& placement, const FreeResources& free) {
  const model::ClusterView& view = free.view();
  if (placement.size() != 1 || placement.front().gpus != 0 || placement.front().milli != job.gpu_milli) {
    return fmt::format("{} asks for {} thousandths of one GPU and the placement is {}; expected one share "
                       "(node, gpus=0, milli={}, gpu)",
                       job_text(job), job.gpu_milli, describe(placement), job.gpu_milli);
  }
  const model::NodeShare& share = placement.front();
  const auto node = model::to_index(share.node);
  if (node >= view.shape().nodes || share.gpu >= view.gpus_of(share.node)) {
    return fmt::format("shared GPU {} of node {} does not exist; expected a node below {} and a GPU below its GPUs",
                       share.gpu, node, view.shape().nodes);
  }
  if (!view.is_up(share.node)) {
    return fmt::format("node {} is down; expected an up node", node);
  }
  std::uint32_t used = free.shared_gpu_milli(share.node, share.gpu);
  if (used == 0 && free.free_gpus(share.node) == 0) {
    return fmt::format("node {} has no free GPU to open shared GPU {} on; expected a node with a free GPU", node,
                       share.gpu);
  }
  if (used + share.milli > model::MILLI_PER_GPU) {
    return fmt::format("shared GPU {} of node {} has {} thousandths in use and {} more do not fit; expected at most {}",
                       share.gpu, node, used, share.milli, model::MILLI_PER_GPU - used);
  }
  return "";
}

std::string check_whole_gpus(const model::JobSpec& job, const model::Placement& placement, const FreeResources& free) {
  const model::ClusterView& view = free.view();
  std::uint64_t total = 0;
  std::vector<model::NodeId> seen;
  for (const model::NodeShare& share : placement) {
    const auto node = model::to_index(share.node);
    if (node >= view.shape().nodes) {
      return fmt::format("node {} does not exist; expected a node from 0 to {}", node, view.shape().nodes - 1);
    }
    if (share.milli != 0 || share.gpus == 0) {
      return fmt::format("the share on node {} is {}; expected whole GPUs (gpus > 0, milli 0) for {}", node,
                         describe({share}), job_text(job));
    }
    if (!view.is_up(share.node)) {
      return fmt::format("node {} is down; expected an up node", node);
    }
    if (std::find(seen.begin(), seen.end(), share.node) != seen.end()) {
      return fmt::format("node {} appears twice; expected each node once", node);
    }
    seen.push_back(share.node);
    if (share.gpus > free.free_gpus(share.node)) {
      return fmt::format("{} GPUs on node {}, which has {} free; expected at most the free GPUs", share.gpus, node,
                         free.free_gpus(share.node));
    }
    total += share.gpus;
  }
  // A gang job may take whole nodes beyond its GPUs (12 GPUs on two 8-GPU nodes), never a spare share.
  std::uint32_t smallest = std::min_element(placement.begin(), placement.end(), [](const auto& a, const auto& b) {
                             return a.gpus < b.gpus;
                           })->gpus;
  if (total < job.gpus || total - smallest >= job.gpus) {
    return fmt::format("the placement holds {} GPUs and {} asks for {}; expected its GPUs, with no share to spare",
                       total, job_text(job), job.gpus);
  }
  return "";
}

} // namespace

std::string describe(const model::Placement& placement) {
  if (placement.empty()) {
    return "[]";
  }
  std::string out = "[";
  for (const model::NodeShare& s : placement) {
    out += out.size() > 1 ? ", " : "";
    out += s.milli > 0 ? fmt::format("node {}: {}/1000 of GPU {}", model::to_index(s.node), s.milli, s.gpu)
                       : fmt::format("node {}: {} GPUs", model::to_index(s.node), s.gpus);
  }
  return out + "]";
}

std::string check_placement(const model::JobSpec& job, const model::Placement& placement, const FreeResources& free) {
  if (job.is_cpu_job()) {
    if (!placement.empty()) {
      return fmt::format("{} is a CPU job and the placement is {}; expected an empty placement (the CPU pool)",
                         job_text(job), describe(placement));
    }
    if (job.cpus > free.free_cpu_cores()) {
      return fmt::format("{} asks for {} CPU cores and {} are free; expected at most the free cores", job_text(job),
                         job.cpus, free.free_cpu_cores());
    }
    return "";
  }
  if (placement.empty()) {
    return fmt::format("{} asks for {} GPUs and the placement is empty; expected shares that cover them", job_text(job),
                       job.gpus);
  }
  return job.is_fractional() ? check_fraction(job, placement, free) : check_whole_gpus(job, placement, free);
}

void DecisionCheck::begin_round(const model::ClusterView& view) {
  free_.begin_round(view);
  decided_.clear();
}

std::string DecisionCheck::phase_error(model::JobId job, model::JobPhase wanted, const char* decision) const {
  const model::JobEntry* entry = free_.view().find_job(job);
  if (entry == nullptr) {
    return fmt::format("{} for job {}, which is not in this cluster (never submitted here, or already ended); "
                       "expected a {} job",
                       decision, model::to_index(job), phase_name(wanted));
  }
  if (entry->phase != wanted) {
    return fmt::format("{} for {}, which is {}; expected a {} job", decision, job_text(entry->spec),
                       phase_name(entry->phase), phase_name(wanted));
  }
  if (decided_.count(job) > 0) {
    return fmt::format("{} for {}, which already has a decision in this call; expected one decision per job", decision,
                       job_text(entry->spec));
  }
  return "";
}

std::string DecisionCheck::accept_start(const model::StartJob& start) {
  if (std::string error = phase_error(start.job, model::JobPhase::QUEUED, "StartJob"); !error.empty()) {
    return error;
  }
  const model::JobSpec& spec = free_.view().job(start.job).spec;
  if (std::string error = check_placement(spec, start.placement, free_); !error.empty()) {
    return fmt::format("StartJob for {} on {}: {}", job_text(spec), describe(start.placement), error);
  }
  if (spec.is_cpu_job()) {
    free_.take_cpus(spec.cpus);
  } else {
    free_.take(start.placement);
  }
  decided_.insert(start.job);
  return "";
}

std::string DecisionCheck::accept(const model::Decision& decision) {
  return std::visit(
      [&](const auto& d) -> std::string {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<D, model::StartJob>) {
          return accept_start(d);
        } else if constexpr (std::is_same_v<D, model::NoteWait>) {
          return phase_error(d.job, model::JobPhase::QUEUED, "NoteWait");
        } else if constexpr (std::is_same_v<D, model::CallMeLater>) {
          return std::isfinite(d.time_s)
                     ? std::string()
                     : fmt::format("CallMeLater at {}; expected a finite time in seconds", d.time_s);
        } else {
          constexpr bool PREEMPT = std::is_same_v<D, model::PreemptJob>;
          std::string error = PREEMPT ? phase_error(d.job, model::JobPhase::RUNNING, "PreemptJob")
                                      : phase_error(d.job, model::JobPhase::QUEUED, "RejectJob");
          if (error.empty()) {
            decided_.insert(d.job);
          }
          return error;
        }
      },
      decision);
}

} // namespace acme::policies::python
