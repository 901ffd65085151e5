#include "workloads/synthetic/pretrain_stream.hpp"

#include <algorithm>
#include <cmath>

#include "sim/model/assert.hpp"

namespace acme::workloads::synthetic {
namespace {

// Runs start this many of the longest GPU jobs (Table 2 max run time) before the period, so that the
// attempts of runs in progress at its start are generated (a numerical setting, not a model parameter).
constexpr double WARMUP_LONGEST_JOBS = 2.0;
// Draws of the team's stream that find team_rate_factor's fixed point (each changes it by well under 1% by
// the third on the default config) and the largest factor it returns (a plan far too small for the
// team's runs: the team would wait most of the period).
constexpr int TEAM_RATE_ROUNDS = 4;
constexpr double MAX_TEAM_RATE_FACTOR = 4.0;

double overlap_s(double from_s, double to_s, double start_s, double end_s) {
  return std::max(0.0, std::min(to_s, end_s) - std::max(from_s, start_s));
}

} // namespace

PretrainStream::PretrainStream(const StreamContext& context, double team_rate_factor)
    : ctx_(context)
    , rng_(context.options->seed, "workload/synthetic/" + context.plan->name + "/pretrain")
    , pretrain_(context.model->find(model::JobType::PRETRAIN))
    , draws_(*pretrain_, context.options->seed, stream_name(context, "Pretrain"))
    , run_gpus_(context.options->seed, stream_name(context, "Pretrain/run_gpus"))
    , rate_per_s_(type_rate(context, pretrain_, context.model->pretrain_attempts_per_run) * team_rate_factor)
    , arrivals_(rate_per_s_, *context.rhythm, context.start_s - WARMUP_LONGEST_JOBS * context.model->max_run_time_s)
    , team_gpus_(context.plan->team_gpus)
    , debug_rng_(context.options->seed, stream_name(context, "team_debug"))
    , debug_arrivals_(0.0, *context.rhythm, context.start_s) {
  next_run_s_ = arrivals_.next(rng_);
  debug_ = team_gpus_ == 0 ? nullptr : context.model->find(model::JobType::DEBUG);
  if (debug_ != nullptr) {
    debug_draws_.emplace(*debug_, ctx_.options->seed, stream_name(ctx_, "Debug"));
    debug_rate_per_s_ = type_rate(ctx_, debug_, 1.0) * team_rate_factor;
    debug_arrivals_ = ArrivalProcess(debug_rate_per_s_, *ctx_.rhythm, ctx_.start_s);
    next_debug_s_ = debug_arrivals_.next(debug_rng_);
  }
}

double PretrainStream::next_output_s() {
  double attempt_s = attempts_.empty() ? NO_MORE_JOBS : attempts_.top().submit_s;
  return debug_ready_.empty() ? attempt_s : std::min(attempt_s, debug_ready_.begin()->first);
}

void PretrainStream::refill() {
  for (;;) {
    if (advance_team(next_output_s())) {
      continue;
    }
    if (attempts_.empty() || attempts_.top().submit_s >= ctx_.start_s) {
      return;
    }
    Attempt warmup = attempts_.top(); // before the period: drawn for its successors, not emitted
    attempts_.pop();
    run_attempt(warmup);
  }
}

bool PretrainStream::waiting() const {
  return waiting_run_ != SIZE_MAX || waiting_debug_.has_value();
}

bool PretrainStream::advance_team(double before_s) {
  bool waiting = this->waiting();
  double run_s = next_run_s_ < ctx_.end_s ? next_run_s_ : NO_MORE_JOBS;
  double debug_s = next_debug_s_ < ctx_.end_s ? next_debug_s_ : NO_MORE_JOBS;
  double wish_s = waiting ? NO_MORE_JOBS : std::min(run_s, debug_s);
  double release_s = releases_.empty() ? NO_MORE_JOBS : releases_.top().end_s;
  if (release_s != NO_MORE_JOBS && release_s <= wish_s && release_s <= before_s) {
    team_use_gpus_ -= releases_.top().gpus;
    releases_.pop();
    if (waiting && fits(waiting_run_ != SIZE_MAX ? gpus_of(runs_[waiting_run_]) : waiting_debug_->spec.gpus)) {
      end_wait(std::ceil(release_s));
    }
    return true;
  }
  if (wish_s == NO_MORE_JOBS || wish_s > before_s) {
    return false;
  }
  if (run_s <= debug_s) {
    draw_run(run_s);
    next_run_s_ = arrivals_.next(rng_);
  } else {
    draw_debug(debug_s);
    next_debug_s_ = debug_arrivals_.next(debug_rng_);
  }
  return true;
}

void PretrainStream::end_wait(double at_s) {
  team_wait_s_ += overlap_s(wait_since_s_, at_s, ctx_.start_s, ctx_.end_s);
  if (waiting_run_ != SIZE_MAX) {
    start_run(waiting_run_, at_s);
    waiting_run_ = SIZE_MAX;
  } else {
    start_debug(std::move(*waiting_debug_), at_s);
    waiting_debug_.reset();
  }
  arrivals_ = ArrivalProcess(rate_per_s_, *ctx_.rhythm, at_s); // the team's next jobs follow the wait
  next_run_s_ = arrivals_.next(rng_);
  if (debug_ != nullptr) {
    debug_arrivals_ = ArrivalProcess(debug_rate_per_s_, *ctx_.rhythm, std::max(at_s, ctx_.start_s)); // not in warm-up
    next_debug_s_ = debug_arrivals_.next(debug_rng_);
  }
}

void PretrainStream::draw_run(double at_s) {
  Run run;
  run.gpu_index = ctx_.model->pretrain_run_gpus.pick(run_gpus_.next());
  run.model_params = model_params_for_gpus(pretrain_->gpus[run.gpu_index], *pretrain_);
  run.user = ctx_.users->draw(rng_);
  runs_.push_back(run);
  if (fits(gpus_of(run))) {
    start_run(runs_.size() - 1, std::floor(at_s));
  } else {
    waiting_run_ = runs_.size() - 1;
    wait_since_s_ = at_s;
  }
}

void PretrainStream::draw_debug(double at_s) {
  GeneratedJob job = draw_gpu_job(ctx_, *debug_draws_, debug_draws_->draw_job(), std::floor(at_s),
                                  ctx_.users->draw(debug_rng_), debug_rng_);
  if (fits(job.spec.gpus)) {
    start_debug(std::move(job), std::floor(at_s));
  } else {
    waiting_debug_ = std::move(job);
    wait_since_s_ = at_s;
  }
}

void PretrainStream::start_debug(GeneratedJob job, double at_s) {
  job.spec.submit_time_s = at_s;
  team_use_gpus_ += job.spec.gpus;
  releases_.push(Release{at_s + job.spec.duration_s, job.spec.gpus});
  debug_ready_.emplace(at_s, std::move(job));
}

void PretrainStream::start_run(std::size_t run, double at_s) {
  attempts_.push(Attempt{at_s, run, 1});
  if (team_gpus_ != 0) {
    team_use_gpus_ += gpus_of(runs_[run]);
  }
}

bool PretrainStream::fits(std::uint32_t gpus) const {
  return team_gpus_ == 0 || team_use_gpus_ == 0 || team_use_gpus_ + gpus <= team_gpus_;
}

std::uint32_t PretrainStream::gpus_of(const Run& run) const {
  return pretrain_->gpus[run.gpu_index];
}

double PretrainStream::peek_s() {
  refill();
  double next_s = next_output_s();
  return next_s < ctx_.end_s ? next_s : NO_MORE_JOBS;
}

GeneratedJob PretrainStream::pop() {
  ACME_ASSERT(peek_s() != NO_MORE_JOBS, "pop follows a peek that found a job");
  if (!debug_ready_.empty() && (attempts_.empty() || debug_ready_.begin()->first < attempts_.top().submit_s)) {
    GeneratedJob job = std::move(debug_ready_.begin()->second);
    debug_ready_.erase(debug_ready_.begin());
    return job;
  }
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
  } else if (team_gpus_ != 0) {
    releases_.push(Release{attempt.submit_s + duration_s, gpus_of(run)});
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

double PretrainStream::team_wait_s() const {
  return team_wait_s_ + (waiting() ? overlap_s(wait_since_s_, ctx_.end_s, ctx_.start_s, ctx_.end_s) : 0.0);
}

double team_rate_factor(const StreamContext& context) {
  double period_s = context.end_s - context.start_s;
  if (context.plan->team_gpus == 0 || period_s <= 0.0 || context.options->scale <= 0.0) {
    return 1.0;
  }
  StreamContext paper_rate = context; // found at the paper's rates: workload.scale then multiplies them
  paper_rate.per_paper_job /= context.options->scale;
  double factor = 1.0;
  for (int round = 0; round < TEAM_RATE_ROUNDS; ++round) {
    PretrainStream probe(paper_rate, factor);
    while (probe.peek_s() != NO_MORE_JOBS) {
      probe.pop();
    }
    double active_s = period_s - probe.team_wait_s();
    factor = active_s * MAX_TEAM_RATE_FACTOR <= period_s ? MAX_TEAM_RATE_FACTOR : period_s / active_s;
  }
  return factor;
}

} // namespace acme::workloads::synthetic
