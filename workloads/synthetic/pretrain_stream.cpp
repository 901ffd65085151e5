#include "workloads/synthetic/pretrain_stream.hpp"

#include <cmath>

#include "sim/model/assert.hpp"

namespace acme::workloads::synthetic {
namespace {

// Runs start this many of the longest GPU jobs (Table 2 max run time) before the period, so that the
// attempts of runs in progress at its start are generated (a numerical setting, not a model parameter).
constexpr double WARMUP_LONGEST_JOBS = 2.0;

double run_rate(const StreamContext& ctx, const TypeModel* pretrain) {
  if (pretrain == nullptr) {
    return 0.0;
  }
  return pretrain->count_share * ctx.model->gpu_jobs * ctx.per_paper_job / ctx.model->pretrain_attempts_per_run;
}

} // namespace

PretrainStream::PretrainStream(const StreamContext& context)
    : ctx_(context)
    , rng_(context.options->seed, "workload/synthetic/" + context.plan->name + "/pretrain")
    , pretrain_(context.model->find(model::JobType::PRETRAIN))
    , draws_(*pretrain_, context.options->seed, stream_name(context, "Pretrain"))
    , run_gpus_(context.options->seed, stream_name(context, "Pretrain/run_gpus"))
    , arrivals_(run_rate(context, pretrain_), *context.rhythm,
                context.start_s - WARMUP_LONGEST_JOBS * context.model->max_run_time_s) {
  next_run_s_ = arrivals_.next(rng_);
}

void PretrainStream::refill() {
  for (;;) {
    while (next_run_s_ < ctx_.end_s && (attempts_.empty() || next_run_s_ <= attempts_.top().submit_s)) {
      Run run;
      run.gpu_index = ctx_.model->pretrain_run_gpus.pick(run_gpus_.next());
      run.model_params = model_params_for_gpus(pretrain_->gpus[run.gpu_index], *pretrain_);
      run.user = ctx_.users->draw(rng_);
      runs_.push_back(run);
      attempts_.push(Attempt{std::floor(next_run_s_), runs_.size() - 1, 1});
      next_run_s_ = arrivals_.next(rng_);
    }
    if (attempts_.empty() || attempts_.top().submit_s >= ctx_.start_s) {
      return;
    }
    Attempt warmup = attempts_.top(); // before the period: drawn for its successors, not emitted
    attempts_.pop();
    run_attempt(warmup);
  }
}

double PretrainStream::peek_s() {
  refill();
  if (attempts_.empty() || attempts_.top().submit_s >= ctx_.end_s) {
    return NO_MORE_JOBS;
  }
  return attempts_.top().submit_s;
}

GeneratedJob PretrainStream::pop() {
  ACME_ASSERT(peek_s() != NO_MORE_JOBS, "pop follows a peek that found a job");
  Attempt attempt = attempts_.top();
  attempts_.pop();
  return run_attempt(attempt);
}

GeneratedJob PretrainStream::run_attempt(const Attempt& attempt) {
  Run& run = runs_[attempt.run];
  TypeDraws::GpuJob drawn = draws_.draw_job_with(run.gpu_index);
  GeneratedJob job = draw_gpu_job(ctx_, draws_, drawn, attempt.submit_s, run.user, rng_);
  double duration_s = drawn.duration_s;
  if (job.spec.final_state != model::JobState::COMPLETED && attempt.number < UINT16_MAX) {
    double next_s = std::floor(attempt.submit_s + duration_s + ctx_.options->resubmit_delay_s);
    attempts_.push(Attempt{next_s, attempt.run, static_cast<std::uint16_t>(attempt.number + 1)});
  }
  running_.push_back(Running{attempt.run, attempt.submit_s + duration_s});
  if (attempt.submit_s >= ctx_.start_s) {
    job.spec.run = model::RunId{id_of(run)};
  }
  job.spec.attempt = attempt.number;
  if (attempt.number > 1) {
    job.spec.resubmit_delay_s = ctx_.options->resubmit_delay_s; // after the previous attempt ends
  }
  job.spec.model_params = run.model_params;
  return job;
}

std::uint64_t PretrainStream::id_of(Run& run) {
  if (run.id == 0) {
    run.id = next_id_++;
  }
  return run.id;
}

CheckpointLink PretrainStream::checkpoint_at(double t_s, model::Rng& rng) {
  for (std::size_t i = 0; i < running_.size();) {
    if (running_[i].end_s > t_s) {
      ++i;
      continue;
    }
    if (running_[i].end_s >= last_end_s_) {
      last_end_s_ = running_[i].end_s;
      last_run_ = running_[i].run;
    }
    running_[i] = running_.back();
    running_.pop_back();
  }
  std::size_t chosen = running_.empty() ? last_run_ : running_[rng.below(running_.size())].run;
  if (chosen == SIZE_MAX) {
    std::size_t gpu_index = ctx_.model->pretrain_run_gpus.draw(rng);
    return CheckpointLink{0, 0, model_params_for_gpus(pretrain_->gpus[gpu_index], *pretrain_), ctx_.users->draw(rng)};
  }
  Run& run = runs_[chosen];
  return CheckpointLink{id_of(run), ++run.checkpoints, run.model_params, run.user};
}

} // namespace acme::workloads::synthetic
