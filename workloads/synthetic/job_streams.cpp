#include "workloads/synthetic/job_streams.hpp"

#include <cmath>

#include "sim/model/assert.hpp"
#include "workloads/synthetic/pretrain_stream.hpp"

namespace acme::workloads::synthetic {
namespace {

model::Rng stream_rng(const StreamContext& ctx, const char* stream) {
  return model::Rng(ctx.options->seed, stream_name(ctx, stream));
}

} // namespace

double type_rate(const StreamContext& ctx, const TypeModel* type, double jobs_per_arrival) {
  return type == nullptr ? 0.0 : type->count_share * ctx.model->gpu_jobs * ctx.per_paper_job / jobs_per_arrival;
}

double submit_second(double arrival_s, double end_s) {
  return arrival_s < end_s ? std::floor(arrival_s) : NO_MORE_JOBS;
}

std::string stream_name(const StreamContext& context, const std::string& what) {
  return "workload/synthetic/" + context.plan->name + "/" + what;
}

GeneratedJob draw_gpu_job(const StreamContext& ctx, TypeDraws& draws, const TypeDraws::GpuJob& job, double submit_s,
                          model::UserId user, model::Rng& rng) {
  StateDraw end = gpu_state_at(ctx.model->state, job.gpus, job.duration_s, draws.state_uniform(job),
                               ctx.options->script_failure_share, rng);
  return GeneratedJob{make_job(*ctx.plan, draws.get_type().type, job.gpus, submit_s, job.duration_s, end, user)};
}

MiscStream::MiscStream(const StreamContext& context)
    : ctx_(context)
    , rng_(stream_rng(context, "misc"))
    , pick_stream_(context.options->seed, stream_name(context, "type"))
    , arrivals_(0.0, *context.rhythm, context.start_s) {
  std::vector<double> shares;
  double rate = 0.0;
  for (const auto& t : ctx_.model->types) {
    bool team_debug = t.type == model::JobType::DEBUG && ctx_.plan->team_gpus != 0; // PretrainStream's
    if (t.type == model::JobType::PRETRAIN || t.type == model::JobType::EVAL || team_debug) {
      continue;
    }
    types_.emplace_back(t, ctx_.options->seed, stream_name(ctx_, std::string(model::to_string(t.type))));
    double sweep = ctx_.options->sweep_size[static_cast<std::size_t>(t.type)];
    shares.push_back(t.count_share / sweep); // a sweep arrives for `sweep` jobs of the type
    rate += type_rate(ctx_, &t, sweep);
  }
  if (!types_.empty()) {
    pick_ = DiscreteDistribution(shares);
  }
  arrivals_ = ArrivalProcess(rate, *ctx_.rhythm, ctx_.start_s);
  next_s_ = submit_second(arrivals_.next(rng_), ctx_.end_s);
}

double MiscStream::peek_s() {
  return sweep_.empty() ? next_s_ : sweep_.front().spec.submit_time_s;
}

GeneratedJob MiscStream::pop() {
  if (!sweep_.empty()) {
    GeneratedJob job = std::move(sweep_.front());
    sweep_.pop_front();
    return job;
  }
  TypeDraws& draws = types_[pick_.pick(pick_stream_.next())];
  model::UserId user = ctx_.users->draw(rng_);
  GeneratedJob job = draw_gpu_job(ctx_, draws, draws.draw_job(), next_s_, user, rng_);
  // A sweep: 1 + Poisson(mean - 1) jobs of one user in one second, each drawn as a job of its own.
  if (double sweep = ctx_.options->sweep_size[static_cast<std::size_t>(draws.get_type().type)]; sweep > 1.0) {
    for (std::uint32_t extra = draw_poisson(sweep - 1.0, rng_); extra > 0; --extra) {
      sweep_.push_back(draw_gpu_job(ctx_, draws, draws.draw_job(), next_s_, user, rng_));
    }
  }
  next_s_ = submit_second(arrivals_.next(rng_), ctx_.end_s);
  return job;
}

CpuStream::CpuStream(const StreamContext& context)
    : ctx_(context)
    , rng_(stream_rng(context, "cpu"))
    , draws_(context.model->cpu, context.options->seed, stream_name(context, "cpu_draws"))
    , arrivals_(context.model->cpu_jobs * context.per_paper_job, *context.rhythm, context.start_s) {
  next_s_ = submit_second(arrivals_.next(rng_), ctx_.end_s);
}

double CpuStream::peek_s() {
  return next_s_;
}

GeneratedJob CpuStream::pop() {
  double duration_s = draws_.draw_duration();
  StateDraw end = draws_.draw_state(ctx_.options->script_failure_share, rng_);
  GeneratedJob job{make_job(*ctx_.plan, model::JobType::OTHER, 0, next_s_, duration_s, end, ctx_.users->draw(rng_))};
  next_s_ = submit_second(arrivals_.next(rng_), ctx_.end_s);
  return job;
}

EvalStream::EvalStream(const StreamContext& context, PretrainStream& pretrain)
    : ctx_(context)
    , rng_(stream_rng(context, "eval"))
    , pretrain_(&pretrain)
    , eval_(context.model->find(model::JobType::EVAL))
    , arrivals_(type_rate(context, eval_, context.options->eval_batch_size), *context.rhythm, context.start_s) {
  if (eval_ != nullptr) {
    draws_.emplace(*eval_, ctx_.options->seed, stream_name(ctx_, "Evaluation"));
  }
  next_s_ = submit_second(arrivals_.next(rng_), ctx_.end_s);
}

double EvalStream::peek_s() {
  return batch_.empty() ? next_s_ : batch_.front().spec.submit_time_s;
}

void EvalStream::make_batch() {
  CheckpointLink link = pretrain_->checkpoint_at(next_s_, rng_);
  std::uint32_t size = std::max(1u, draw_poisson(ctx_.options->eval_batch_size, rng_));
  for (std::uint32_t i = 0; i < size; ++i) {
    GeneratedJob job = draw_gpu_job(ctx_, *draws_, draws_->draw_job(), next_s_, link.user, rng_);
    job.evaluates_run = link.run;
    job.checkpoint = link.checkpoint;
    job.spec.model_params = link.model_params;
    batch_.push_back(std::move(job));
  }
  next_s_ = submit_second(arrivals_.next(rng_), ctx_.end_s);
}

GeneratedJob EvalStream::pop() {
  if (batch_.empty()) {
    make_batch();
  }
  ACME_ASSERT(!batch_.empty(), "an evaluation batch holds at least one job");
  GeneratedJob job = std::move(batch_.front());
  batch_.pop_front();
  return job;
}

} // namespace acme::workloads::synthetic
