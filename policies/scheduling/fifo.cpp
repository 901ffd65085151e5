#include "policies/scheduling/fifo.hpp"

#include <type_traits>

namespace acme::policies {

std::vector<model::Decision> FifoScheduler::on_events(std::span<const model::Event> events,
                                                      const model::ClusterView& cluster) {
  for (const auto& event : events) {
    std::visit(
        [&](const auto& e) {
          using E = std::decay_t<decltype(e)>;
          if constexpr (std::is_same_v<E, model::JobSubmitted>) {
            const auto& job = cluster.job(e.job).spec;
            (job.is_cpu_job() ? cpu_queue_ : gpu_queue_).insert(job.submit_time_s, job.id);
          } else if constexpr (std::is_same_v<E, model::JobEnded>) {
            if (e.cause == model::EndCause::PREEMPTED) {
              const auto& job = cluster.job(e.job).spec;
              (job.is_cpu_job() ? cpu_queue_ : gpu_queue_).insert(job.submit_time_s, job.id);
            }
          }
        },
        event);
  }
  std::vector<model::Decision> out;
  free_.begin_round(cluster);
  start_gpu_jobs(cluster, out);
  start_cpu_jobs(cluster, out);
  return out;
}

void FifoScheduler::start_gpu_jobs(const model::ClusterView& cluster, std::vector<model::Decision>& out) {
  while (!gpu_queue_.empty()) {
    const auto& job = cluster.job(gpu_queue_.front().job).spec;
    if (job.gpus > free_.free_gpus_total()) {
      return;
    }
    auto where = placement().place(job, free_);
    if (!where) {
      return;
    }
    free_.take(*where);
    out.emplace_back(model::StartJob{job.id, std::move(*where)});
    gpu_queue_.pop_front();
  }
}

void FifoScheduler::start_cpu_jobs(const model::ClusterView& cluster, std::vector<model::Decision>& out) {
  while (!cpu_queue_.empty()) {
    const auto& job = cluster.job(cpu_queue_.front().job).spec;
    if (job.cpus > free_.free_cpu_cores()) {
      return;
    }
    free_.take_cpus(job.cpus);
    out.emplace_back(model::StartJob{job.id, {}});
    cpu_queue_.pop_front();
  }
}

} // namespace acme::policies
