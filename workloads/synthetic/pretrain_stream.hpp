#pragma once

#include <map>
#include <optional>
#include <queue>

#include "workloads/synthetic/job_streams.hpp"

namespace acme::workloads::synthetic {

/// The pretraining run whose checkpoint an evaluation batch evaluates.
struct CheckpointLink {
  std::uint64_t run = 0; ///< RunId of the run (0: no run has started yet)
  std::uint32_t checkpoint = 0;
  double model_params = 0.0;
  model::UserId user{};
};

/// Pretraining runs: a run arrives (rhythm-modulated Poisson), fixes its GPU count, model size and user,
/// and submits attempts one after another: each attempt that fails or is cancelled is followed, its
/// duration plus resubmit_delay later, by the next attempt, until one completes. With a team plan
/// (`workload.team_gpus`), the team works in a closed loop: a run counts its GPUs against the plan
/// from its first attempt to the end of its last; a run that would exceed the plan waits until runs
/// under way end, and the team draws no new run while one waits (its next run follows the wait).
/// The team's Debug jobs are then drawn here too (not by MiscStream) and planned the same way. While the
/// team waits it draws nothing, so its arrival rates are raised by `team_rate_factor` (from
/// team_rate_factor()) to keep the paper's number of runs and Debug jobs over the period. Runs start a warm-up
/// before the period so that runs in progress at its start are there; only attempts submitted inside
/// the period are emitted. RunIds are given in order of first use, from 1.
class PretrainStream final : public JobStream {
public:
  /// `team_rate_factor` multiplies the team's arrival rates (team_rate_factor(): 1 without a team plan).
  explicit PretrainStream(const StreamContext& context, double team_rate_factor = 1.0);
  double peek_s() override;
  GeneratedJob pop() override;

  /// A run with an attempt running at `t_s` (chosen uniformly), else the run that ran last. Every
  /// attempt submitted up to `t_s` must have been popped.
  CheckpointLink checkpoint_at(double t_s, model::Rng& rng);
  /// Seconds of the period the team spent waiting for its GPUs (a wait under way counts to the end).
  double team_wait_s() const;

private:
  struct Run {
    std::uint64_t id = 0; ///< 0 until first used
    std::size_t gpu_index = 0;
    double model_params = 0.0;
    model::UserId user{};
    std::uint32_t checkpoints = 0;
  };
  struct Attempt {
    double submit_s = 0.0;
    std::size_t run = 0;
    std::uint16_t number = 1;
    bool operator>(const Attempt& o) const { return submit_s != o.submit_s ? submit_s > o.submit_s : run > o.run; }
  };
  struct Running {
    std::size_t run = 0;
    double end_s = 0.0;
  };
  struct Release {
    double end_s = 0.0;
    std::uint32_t gpus = 0;
    bool operator>(const Release& o) const { return end_s > o.end_s; }
  };

  void refill();
  /// Whether a run or a Debug job waits for the team's GPUs.
  bool waiting() const;
  /// Takes the team's next event (a job's end, a new run or Debug job) if it comes no later than `before_s`.
  bool advance_team(double before_s);
  void draw_run(double at_s);
  /// Submits the run's first attempt at `at_s` and counts its GPUs against the team's plan.
  void start_run(std::size_t run, double at_s);
  void draw_debug(double at_s);
  /// Submits a Debug job at `at_s` and counts its GPUs against the plan until it ends.
  void start_debug(GeneratedJob job, double at_s);
  /// Starts what waits, at `at_s`, and restarts the team's arrivals from there.
  void end_wait(double at_s);
  double next_output_s();
  std::uint32_t gpus_of(const Run& run) const;
  /// Whether the team's plan has room for the run (a run wider than the plan needs all of it).
  bool fits(std::uint32_t gpus) const;
  /// Draws the attempt's length and end, queues the next attempt, records it as running.
  GeneratedJob run_attempt(const Attempt& attempt);
  std::uint64_t id_of(Run& run);

  StreamContext ctx_;
  model::Rng rng_;
  const TypeModel* pretrain_;
  TypeDraws draws_;
  QuasiUniform run_gpus_;
  double rate_per_s_ = 0.0; ///< runs per second
  ArrivalProcess arrivals_;
  double next_run_s_ = NO_MORE_JOBS;
  std::vector<Run> runs_;
  std::priority_queue<Attempt, std::vector<Attempt>, std::greater<>> attempts_;
  std::vector<Running> running_;
  std::uint32_t team_gpus_ = 0; ///< 0: runs arrive unplanned
  std::uint32_t team_use_gpus_ = 0;
  std::size_t waiting_run_ = SIZE_MAX;        ///< a run that waits for the team's GPUs
  std::optional<GeneratedJob> waiting_debug_; ///< or a Debug job that does
  double wait_since_s_ = 0.0;                 ///< when the wait under way began
  double team_wait_s_ = 0.0;                  ///< the period's seconds spent in ended waits
  const TypeModel* debug_ = nullptr;          ///< the team's Debug jobs (with a plan)
  std::optional<TypeDraws> debug_draws_;
  model::Rng debug_rng_;
  ArrivalProcess debug_arrivals_;
  double debug_rate_per_s_ = 0.0;
  double next_debug_s_ = NO_MORE_JOBS;
  std::multimap<double, GeneratedJob> debug_ready_; ///< submitted Debug jobs not yet popped
  std::priority_queue<Release, std::vector<Release>, std::greater<>> releases_;
  std::size_t last_run_ = SIZE_MAX; ///< the run whose attempt ended last among those pruned
  double last_end_s_ = -NO_MORE_JOBS;
  std::uint64_t next_id_ = 1;
};

/// The factor k on the team's arrival rates that makes the team, drawing only while it does not wait,
/// arrive as often over the period as an unplanned team: the fixed point of k = T / (T - W(k)), with W
/// the waiting time of the period T at rates x k, found by drawing the team's stream a few times at the
/// paper's rates (scale 1: the counts it keeps are the paper's; `workload.scale` multiplies the rates as
/// it does every stream's). 1 without a team plan.
double team_rate_factor(const StreamContext& context);

} // namespace acme::workloads::synthetic
