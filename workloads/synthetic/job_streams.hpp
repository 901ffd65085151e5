#pragma once

#include <deque>
#include <limits>
#include <optional>

#include "workloads/synthetic/arrival_process.hpp"
#include "workloads/synthetic/job_draws.hpp"

namespace acme::workloads::synthetic {

/// A generated job and what links it to others.
struct GeneratedJob {
  model::JobSpec spec;             ///< submit_time_s in Unix seconds; name assigned by the generator
  std::uint64_t evaluates_run = 0; ///< evaluation jobs: the pretraining run whose checkpoint they evaluate
  std::uint32_t checkpoint = 0;    ///< evaluation jobs: the number of that checkpoint within its run
};

/// What the streams of one cluster share. Pointers to the owning ClusterGenerator's members.
struct StreamContext {
  const ClusterModel* model = nullptr;
  const ClusterPlan* plan = nullptr;
  const SyntheticOptions* options = nullptr;
  const Rhythm* rhythm = nullptr;
  const UserPool* users = nullptr;
  double start_s = 0.0; ///< Unix seconds
  double end_s = 0.0;
  double per_paper_job = 0.0; ///< arrivals per second for each job of the paper's period (scale included)
};

inline constexpr double NO_MORE_JOBS = std::numeric_limits<double>::infinity();

/// One source of a cluster's jobs in submission order.
class JobStream {
public:
  virtual ~JobStream() = default;
  /// Submit time (whole Unix seconds) of the next job; NO_MORE_JOBS past the period's end.
  virtual double peek_s() = 0;
  /// The next job; only after peek_s() returned a time.
  virtual GeneratedJob pop() = 0;
};

/// SFT, MLLM, Debug (unless a team plan draws them) and Other jobs: independent arrivals, type by its
/// share of jobs.
class MiscStream final : public JobStream {
public:
  explicit MiscStream(const StreamContext& context);
  double peek_s() override;
  GeneratedJob pop() override;

private:
  StreamContext ctx_;
  model::Rng rng_;
  std::vector<TypeDraws> types_;
  DiscreteDistribution pick_;
  QuasiUniform pick_stream_;
  ArrivalProcess arrivals_;
  double next_s_ = NO_MORE_JOBS;
  std::deque<GeneratedJob> sweep_; ///< the rest of a sweep, submitted in the same second
};

/// CPU-only jobs (gpu_num 0).
class CpuStream final : public JobStream {
public:
  explicit CpuStream(const StreamContext& context);
  double peek_s() override;
  GeneratedJob pop() override;

private:
  StreamContext ctx_;
  model::Rng rng_;
  CpuDraws draws_;
  ArrivalProcess arrivals_;
  double next_s_ = NO_MORE_JOBS;
};

class PretrainStream;

/// Evaluation jobs in batches, one batch (about eval_batch_size datasets) per model checkpoint of a
/// pretraining run that is running when the batch arrives.
class EvalStream final : public JobStream {
public:
  EvalStream(const StreamContext& context, PretrainStream& pretrain);
  double peek_s() override;
  GeneratedJob pop() override;

private:
  void make_batch();

  StreamContext ctx_;
  model::Rng rng_;
  PretrainStream* pretrain_;
  const TypeModel* eval_;
  std::optional<TypeDraws> draws_;
  ArrivalProcess arrivals_;
  double next_s_ = NO_MORE_JOBS;
  std::deque<GeneratedJob> batch_;
};

/// Arrivals per second of a type whose arrivals bring `jobs_per_arrival` jobs each (0 without the type).
double type_rate(const StreamContext& ctx, const TypeModel* type, double jobs_per_arrival);
/// Whole Unix seconds of an arrival, or NO_MORE_JOBS at or past `end_s`.
double submit_second(double arrival_s, double end_s);
/// Name of a random stream of the cluster: "workload/synthetic/<cluster>/<what>".
std::string stream_name(const StreamContext& context, const std::string& what);
/// A GPU job of a type: request, duration and state from the type's streams.
GeneratedJob draw_gpu_job(const StreamContext& context, TypeDraws& draws, const TypeDraws::GpuJob& job, double submit_s,
                          model::UserId user, model::Rng& rng);

} // namespace acme::workloads::synthetic
