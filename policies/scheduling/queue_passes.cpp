#include <algorithm>
#include <cmath>

#include "policies/scheduling/queue_scheduler.hpp"
#include "sim/model/assert.hpp"

// The passes of the scheduler skeleton: which pass a round runs (every event, or Slurm's cadence), and
// how a pass walks the queue and asks the policy to decide for each job.
namespace acme::policies {

void QueueScheduler::schedule_gpus(const model::ClusterView& cluster, const RoundChanges& changes,
                                   std::vector<model::Decision>& out) {
  bool reordered = prepare_round(cluster);
  if (cadenced()) {
    cadenced_round(cluster, changes, reordered, out);
    return;
  }
  bool claimant_started = serve_claimant(cluster, out);
  if (!reordered && !claimant_started && changes.arrivals_only() && arrivals_pass(cluster, changes, out)) {
    return;
  }
  full_pass(cluster, out, PassKind::FULL, config_.depth);
}

void QueueScheduler::cadenced_round(const model::ClusterView& cluster, const RoundChanges& changes, bool reordered,
                                    std::vector<model::Decision>& out) {
  // With batch_sched_delay, CPU jobs wait for passes like every batch job; without, they start at once,
  // unless a GPU job waits at the head of the queue: CPU jobs use the GPU nodes' cores
  // (cpu_job_cores_per_node), so they are in the GPU nodes' partition, behind the GPU jobs in priority, and
  // Slurm's main and event passes stop at the partition's first job that cannot start.
  bool batch = config_.cadence.batch_sched_delay_s > 0.0;
  bool changed =
      reordered || !changes.arrivals_only() || !changes.arrived.empty() || (batch && !changes.cpu_arrived.empty());
  bool submissions_only = changes.triggered && !changes.released && !changes.nodes_down;
  RoundPlan plan = cadence_.plan(now_s_, changes.triggered, changed, submissions_only);
  passes_ran_ = !batch || plan.main || plan.backfill;
  if (batch) {
    allocate_interactive(cluster, changes, !plan.main, out);
  }
  bool cut_short = false;
  if (plan.main) {
    bool claimant_started = serve_claimant(cluster, out);
    bool event_pass = plan.main_depth != CadenceParams::NO_LIMIT;
    // A background pass serves submissions of earlier rounds: it walks the queue, as slurmctld does.
    if (reordered || claimant_started || !event_pass || plan.background || !changes.arrivals_only() ||
        !arrivals_pass(cluster, changes, out)) {
      full_pass(cluster, out, PassKind::FULL, event_pass ? config_.depth : NO_LIMIT);
      cut_short = last_end_ == PassEnd::DEPTH;
    }
    note_passed_over(cluster, out);
  }
  if (!plan.backfill && head_waits(cluster)) {
    cpu_behind_head_ = passes_ran_;
    passes_ran_ = false; // CPU jobs rank behind the GPU job at the head: only backfill starts them
  }
  if (plan.backfill) {
    full_pass(cluster, out, PassKind::BACKFILL, config_.cadence.bf_max_job_test);
  }
  if (auto at = cadence_.wake_up(now_s_, gpu_queue().first_in_pass().has_value(), cut_short)) {
    out.emplace_back(model::CallMeLater{*at});
  }
}

void QueueScheduler::allocate_interactive(const model::ClusterView& cluster, const RoundChanges& changes, bool allocate,
                                          std::vector<model::Decision>& out) {
  const std::vector<double>& shares = config_.cadence.interactive_share;
  if (std::none_of(shares.begin(), shares.end(), [](double share) { return share > 0.0; })) {
    return; // every job a batch job: nothing to count or allocate
  }
  std::vector<model::JobId> interactive;
  for (model::JobId id : changes.arrived) {
    const model::JobEntry* entry = queued_entry(cluster, id);
    if (entry != nullptr && next_is_interactive(entry->spec.type)) {
      interactive.push_back(id);
    }
  }
  if (!allocate || interactive.empty()) {
    return; // a main pass this round examines them in their place
  }
  // slurmctld allocates a job at its submission only when no pending job of its partition ranks above it
  // (job_mgr.c, _top_priority): a pass over the queue's first job alone, as long as that is one of them.
  std::optional<model::JobId> head = head_;
  PassEnd end = last_end_;
  for (std::size_t tried = 0; tried < interactive.size(); ++tried) {
    std::optional<QueueKey> first = gpu_queue().first_in_pass();
    if (!first || std::find(interactive.begin(), interactive.end(), first->job) == interactive.end()) {
      break;
    }
    full_pass(cluster, out, PassKind::FULL, 1);
    if (head_) {
      break; // it waits, now the queue's head
    }
  }
  head_ = head_ ? head_ : head;
  last_end_ = end;
}

bool QueueScheduler::next_is_interactive(model::JobType type) {
  double share = config_.cadence.interactive_share[static_cast<std::size_t>(type)];
  auto n = static_cast<double>(arrivals_by_type_[static_cast<std::size_t>(type)]++);
  return std::floor((n + 1.0) * share) > std::floor(n * share);
}

bool QueueScheduler::head_waits(const model::ClusterView& cluster) {
  return head_.has_value() && queued_entry(cluster, *head_) != nullptr;
}

bool QueueScheduler::within_user_budget(model::UserId user) {
  std::uint32_t limit = config_.cadence.bf_max_job_user;
  return limit == 0 || ++tested_by_user_[user] <= limit;
}

void QueueScheduler::begin(PassKind kind) {
  min_unfit_ = NO_LIMIT;
  min_unpreemptable_ = NO_LIMIT;
  tested_by_user_.clear();
  begin_pass(kind);
}

void QueueScheduler::full_pass(const model::ClusterView& cluster, std::vector<model::Decision>& out, PassKind kind,
                               std::uint32_t depth) {
  head_.reset();
  begin(kind);
  PassQueue& queue = gpu_queue();
  std::uint32_t examined = 0;
  std::optional<QueueKey> key = queue.first_in_pass();
  while (key) {
    if (examined == depth) {
      last_end_ = PassEnd::DEPTH;
      return;
    }
    if (no_room() && !may_preempt()) {
      if (queued_entry(cluster, key->job) != nullptr) {
        note_wait(key->job, model::WaitReason::RESOURCES, out); // the first in line waits for GPUs
      }
      last_end_ = PassEnd::NO_FREE_GPUS;
      return;
    }
    prefetch_ahead(queue);
    Step step = Step::SKIPPED;
    // A job with a brief is queued (briefs leave with the job): its entry is read only if needed.
    JobBrief brief = briefs_.get(key->job);
    const model::JobEntry* entry = brief.known() ? nullptr : queued_entry(cluster, key->job);
    if (!brief.known() && entry == nullptr) {
      dequeue(key->job);
    } else if (kind != PassKind::BACKFILL || within_user_budget(brief.known() ? brief.user() : entry->spec.user)) {
      ++examined;
      step = entry != nullptr ? examine(*entry, kind, out) : examine_queued(cluster, key->job, brief, kind, out);
    }
    if (!head_ && (step == Step::WAITING || step == Step::BLOCKED)) {
      head_ = key->job;
    }
    if (step == Step::BLOCKED || step == Step::PREEMPTED) {
      last_end_ = PassEnd::STOPPED;
      return;
    }
    key = queue.next_in_pass(*key, step);
  }
  last_end_ = PassEnd::QUEUE_EXHAUSTED;
}

void QueueScheduler::prefetch_ahead(const PassQueue& queue) const {
  // A long pass reads each job's brief and wait note from tables indexed by job id: a cache miss per
  // step. Asking for the job a few steps ahead lets those misses overlap with the steps before it.
  constexpr std::size_t AHEAD = 4;
  if (std::optional<model::JobId> ahead = queue.peek_ahead(AHEAD)) {
    __builtin_prefetch(briefs_.slot(*ahead));
    __builtin_prefetch(noted_.slot(*ahead));
  }
}

bool QueueScheduler::arrivals_pass(const model::ClusterView& cluster, const RoundChanges& changes,
                                   std::vector<model::Decision>& out) {
  std::vector<QueueKey> arrivals;
  for (model::JobId id : changes.arrived) {
    if (auto key = gpu_queue().find(id)) {
      arrivals.push_back(*key);
    }
  }
  std::sort(arrivals.begin(), arrivals.end());
  ArrivalsRound round = on_arrivals(cluster, arrivals);
  if (round != ArrivalsRound::EXAMINE) {
    return round == ArrivalsRound::SKIP;
  }
  begin(PassKind::ARRIVALS);
  for (const QueueKey& key : arrivals) {
    const model::JobEntry* entry = queued_entry(cluster, key.job);
    if (entry == nullptr) {
      continue;
    }
    Step step = examine(*entry, PassKind::ARRIVALS, out);
    if (step == Step::BLOCKED || step == Step::PREEMPTED) {
      last_end_ = PassEnd::STOPPED;
      return true;
    }
  }
  return true;
}

bool QueueScheduler::arrivals_behind_head(const model::ClusterView& cluster, const std::vector<QueueKey>& arrivals) {
  if (!head_ || queued_entry(cluster, *head_) == nullptr) {
    return false;
  }
  std::optional<QueueKey> head_key = gpu_queue().find(*head_);
  return head_key && (arrivals.empty() || !(arrivals.front() < *head_key));
}

Step QueueScheduler::examine(const model::JobEntry& entry, PassKind kind, std::vector<model::Decision>& out) {
  held_for_.reset();
  Step step = decide(entry, kind, out);
  note_step(entry.spec.id, step, out);
  return step;
}

Step QueueScheduler::examine_queued(const model::ClusterView& cluster, model::JobId id, const JobBrief& brief,
                                    PassKind kind, std::vector<model::Decision>& out) {
  held_for_.reset();
  if (std::optional<Step> step = decide_brief(brief, kind)) {
    note_step(id, *step, out);
    return *step;
  }
  const model::JobEntry* entry = queued_entry(cluster, id);
  ACME_ASSERT(entry != nullptr, "a job with a brief is queued (briefs leave with the job)");
  return examine(*entry, kind, out);
}

void QueueScheduler::note_step(model::JobId job, Step step, std::vector<model::Decision>& out) {
  switch (step) {
  case Step::WAITING:
  case Step::BLOCKED:
    note_wait(job, held_for_.value_or(model::WaitReason::RESOURCES), out);
    break;
  case Step::PREEMPTED:
    note_wait(job, model::WaitReason::PREEMPTION, out);
    break;
  case Step::SKIPPED:
    if (held_for_) {
      note_wait(job, *held_for_, out);
    }
    break;
  case Step::STARTED:
    break;
  }
}

} // namespace acme::policies
