#include "policies/scheduling/priority_index.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "sim/model/assert.hpp"

namespace acme::policies {

PriorityIndex::PriorityIndex(PriorityIndexParams params, BaseOf base_of, std::size_t prefix_jobs)
    : params_(params)
    , base_of_(std::move(base_of))
    , prefix_jobs_(prefix_jobs) {
  ACME_ASSERT(params_.age_unit_s > 0.0, "PriorityIndex: age_unit_s must be positive");
  ACME_ASSERT(params_.max_age_units >= 0 && params_.max_age_units <= PRIORITY_INDEX_MAX_TERM,
              "PriorityIndex: max_age_units out of range");
}

std::int64_t PriorityIndex::unit_of(double time_s) const {
  double unit = std::floor(time_s / params_.age_unit_s);
  ACME_ASSERT(std::abs(unit) <= static_cast<double>(PRIORITY_INDEX_MAX_TERM), "PriorityIndex: time out of range");
  return static_cast<std::int64_t>(unit);
}

PriorityIndex::Phase PriorityIndex::phase_of(std::int64_t submit_unit) const {
  if (submit_unit > now_unit_) {
    return Phase::YOUNG;
  }
  return now_unit_ - submit_unit >= params_.max_age_units ? Phase::CAPPED : Phase::AGEING;
}

std::int64_t PriorityIndex::offset_of(const User& user, Phase phase) const {
  switch (phase) {
  case Phase::YOUNG:
    return user.term;
  case Phase::AGEING:
    return user.term + now_unit_;
  case Phase::CAPPED:
    break;
  }
  return user.term + params_.max_age_units;
}

PriorityIndex::Key PriorityIndex::relative_key(model::JobId id, const Job& job) const {
  // An ageing job's priority is base - submit_unit + (term + now_unit): the sequence's order is fixed.
  std::int64_t rank = job.phase == Phase::AGEING ? job.base - job.submit_unit : job.base;
  return {-rank, job.submit_time_s, id};
}

PriorityIndex::Key PriorityIndex::global_key(const Seq& seq, const Key& relative) {
  return {relative.neg_priority - seq.offset, relative.submit_time_s, relative.job};
}

PriorityIndex::Key PriorityIndex::relative_to(const Seq& seq, const Key& global) {
  return {global.neg_priority + seq.offset, global.submit_time_s, global.job};
}

QueueKey PriorityIndex::to_queue_key(const Key& key) {
  return {static_cast<double>(key.neg_priority), key.submit_time_s, key.job};
}

PriorityIndex::Key PriorityIndex::from_queue_key(const QueueKey& key) {
  return {std::llround(key.primary), key.secondary, key.job};
}

void PriorityIndex::add_job(model::JobId job, model::UserId user, std::int64_t base, double submit_time_s) {
  ACME_ASSERT(std::abs(base) <= PRIORITY_INDEX_MAX_TERM, "PriorityIndex: base term out of range");
  ACME_ASSERT(std::isfinite(submit_time_s), "PriorityIndex: submit time must be finite");
  drop(job);
  std::int64_t submit_unit = unit_of(submit_time_s);
  user_at(user);
  auto it = jobs_.try_emplace(job, Job{user, base, submit_time_s, submit_unit, phase_of(submit_unit)}).first;
  insert(job, it->second);
  prefix_insert(key_of(job, it->second));
}

void PriorityIndex::add(const QueueKey&, const model::JobSpec& job) {
  add_job(job.id, job.user, base_of_(job), job.submit_time_s);
}

void PriorityIndex::drop(model::JobId job) {
  auto it = jobs_.find(job);
  if (it == jobs_.end()) {
    return;
  }
  prefix_erase(key_of(job, it->second));
  erase(job, it->second);
  jobs_.erase(it);
}

void PriorityIndex::insert(model::JobId id, Job& job) {
  Seq& seq = seq_of(job);
  seq.jobs.insert(relative_key(id, job));
  if (job.phase == Phase::YOUNG) {
    young_.emplace(job.submit_unit, id);
  } else if (job.phase == Phase::AGEING) {
    ageing_.emplace(job.submit_unit, id);
  }
  update_head(seq);
  update_frontier(seq);
}

void PriorityIndex::erase(model::JobId id, Job& job) {
  Seq& seq = seq_of(job);
  seq.jobs.erase(relative_key(id, job));
  if (job.phase == Phase::YOUNG) {
    young_.erase({job.submit_unit, id});
  } else if (job.phase == Phase::AGEING) {
    ageing_.erase({job.submit_unit, id});
  }
  update_head(seq);
  update_frontier(seq);
}

PriorityIndex::User& PriorityIndex::user_at(model::UserId user) {
  auto [it, fresh] = users_.try_emplace(user);
  if (fresh) {
    set_offsets(it->second);
  }
  return it->second;
}

void PriorityIndex::set_offsets(User& user) const {
  for (std::size_t p = 0; p < PHASES; ++p) {
    user.seqs[p].offset = offset_of(user, static_cast<Phase>(p));
  }
}

void PriorityIndex::set_user_term(model::UserId user, std::int64_t term) {
  ACME_ASSERT(std::abs(term) <= PRIORITY_INDEX_MAX_TERM, "PriorityIndex: user term out of range");
  end_pass();
  prefix_reset();
  User& u = user_at(user);
  u.term = term;
  set_offsets(u);
  for (Seq& seq : u.seqs) {
    update_head(seq);
  }
}

void PriorityIndex::recalc(double now_s) {
  ACME_ASSERT(now_s >= priority_time_s_, "PriorityIndex: the priority time never goes backwards");
  priority_time_s_ = now_s;
  now_unit_ = unit_of(now_s);
  end_pass();
  prefix_reset();
  // Young jobs whose submit unit is reached start ageing (or are capped at once after a long gap).
  move_phase(young_, now_unit_);
  move_phase(ageing_, now_unit_ - params_.max_age_units);
  rebuild_heads();
}

/// Re-queues the jobs of `from` whose submit unit is at most `last_unit` in the phase they reach now.
void PriorityIndex::move_phase(UnitSet& from, std::int64_t last_unit) {
  while (!from.empty() && from.begin()->first <= last_unit) {
    model::JobId id = from.begin()->second;
    Job& job = jobs_.at(id);
    erase(id, job);
    job.phase = phase_of(job.submit_unit);
    insert(id, job);
  }
}

void PriorityIndex::rebuild_heads() {
  heads_.clear();
  for (auto& [id, user] : users_) {
    set_offsets(user);
    for (Seq& seq : user.seqs) {
      seq.head.reset();
      update_head(seq);
    }
  }
}

void PriorityIndex::update_head(Seq& seq) {
  if (seq.head && !seq.jobs.empty() && *seq.head == global_key(seq, *seq.jobs.begin())) {
    return; // a change behind the head
  }
  if (seq.head) {
    heads_.erase(*seq.head);
    seq.head.reset();
  }
  if (!seq.jobs.empty()) {
    seq.head = global_key(seq, *seq.jobs.begin());
    heads_.emplace(*seq.head, &seq);
  }
}

namespace {
/// Orders frontier_ as a min-heap on the key.
struct AfterKey {
  template <class Entry>
  bool operator()(const Entry& a, const Entry& b) const {
    return b.first < a.first;
  }
};
} // namespace

void PriorityIndex::update_frontier(Seq& seq) {
  seq.frontier.reset(); // its entry in frontier_, if any, is stale from now on
  if (!cursor_ || !seq.head || *cursor_ < *seq.head) {
    return; // no pass, or the sequence's head is still ahead of it
  }
  auto it = seq.jobs.upper_bound(relative_to(seq, *cursor_));
  if (it != seq.jobs.end()) {
    seq.frontier = global_key(seq, *it);
    seq.frontier_at = it;
    frontier_.emplace_back(*seq.frontier, &seq);
    std::push_heap(frontier_.begin(), frontier_.end(), AfterKey{});
  }
}

void PriorityIndex::step_frontier(Seq& seq, std::set<Key>::iterator at) {
  seq.frontier.reset();
  if (++at != seq.jobs.end()) {
    seq.frontier = global_key(seq, *at);
    seq.frontier_at = at;
    frontier_.emplace_back(*seq.frontier, &seq);
    std::push_heap(frontier_.begin(), frontier_.end(), AfterKey{});
  }
}

void PriorityIndex::drop_stale_frontier() {
  while (!frontier_.empty()) {
    const auto& [key, seq] = frontier_.front();
    if (seq->frontier && *seq->frontier == key) {
      return;
    }
    std::pop_heap(frontier_.begin(), frontier_.end(), AfterKey{});
    frontier_.pop_back();
  }
}

void PriorityIndex::end_pass() {
  for (auto& [key, seq] : frontier_) {
    seq->frontier.reset();
  }
  frontier_.clear();
  cursor_.reset();
}

void PriorityIndex::reposition(const Key& key) {
  end_pass();
  cursor_ = key;
  for (auto it = heads_.begin(); it != heads_.end() && !(key < it->first); ++it) {
    update_frontier(*it->second);
  }
}

std::optional<PriorityIndex::Key> PriorityIndex::advance() {
  auto head = cursor_ ? heads_.upper_bound(*cursor_) : heads_.begin();
  drop_stale_frontier();
  bool any_front = !frontier_.empty();
  bool from_head = head != heads_.end() && (!any_front || head->first < frontier_.front().first);
  if (!from_head && !any_front) {
    end_pass();
    return std::nullopt;
  }
  std::pair<Key, Seq*> next = from_head ? std::pair<Key, Seq*>{head->first, head->second} : frontier_.front();
  auto [key, seq] = next;
  cursor_ = key;
  // Only this sequence's first job after the cursor changed: the one after the job just reached.
  step_frontier(*seq, from_head ? seq->jobs.begin() : seq->frontier_at);
  return key;
}

std::optional<QueueKey> PriorityIndex::first_in_pass() {
  end_pass(); // no merge state outlives a pass (adds and drops would keep its frontier up to date)
  return successor(std::nullopt);
}

std::optional<QueueKey> PriorityIndex::next_in_pass(const QueueKey& key, Step) {
  return successor(from_queue_key(key));
}

std::optional<model::JobId> PriorityIndex::peek_ahead(std::size_t ahead) const {
  std::size_t at = prefix_hint_ + ahead - 1;
  return ahead > 0 && at < prefix_.size() ? std::optional<model::JobId>(prefix_[at].job) : std::nullopt;
}

std::optional<QueueKey> PriorityIndex::successor(const std::optional<Key>& after) {
  std::size_t at = after ? prefix_upper_bound(*after) : 0;
  if (at < prefix_.size()) {
    prefix_hint_ = at + 1;            // where the next step, from this job, lands
    return to_queue_key(prefix_[at]); // every queued job up to it is in the prefix: none lies between
  }
  if (cover_ == Cover::ALL) {
    return std::nullopt;
  }
  // Past the prefix: the first queued job after both `after` and the prefix's limit. Found from the
  // prefix's very end, it is the job that comes next to it: the prefix grows by it.
  std::optional<Key> from = after;
  if (cover_ == Cover::UPTO && (!from || *from < prefix_limit_)) {
    from = prefix_limit_;
  }
  bool adjacent = cover_ == Cover::NONE ? !from : *from == prefix_limit_;
  std::optional<Key> next = merge_after(from);
  if (adjacent && !next) {
    cover_ = Cover::ALL;
  } else if (adjacent && prefix_.size() < prefix_jobs_) {
    prefix_.push_back(*next);
    prefix_hint_ = prefix_.size();
    prefix_limit_ = *next;
    cover_ = Cover::UPTO;
  }
  return next ? std::optional<QueueKey>(to_queue_key(*next)) : std::nullopt;
}

std::optional<PriorityIndex::Key> PriorityIndex::merge_after(const std::optional<Key>& after) {
  if (!after) {
    end_pass();
  } else if (!cursor_ || *cursor_ != *after) {
    reposition(*after);
  }
  return advance();
}

std::size_t PriorityIndex::prefix_upper_bound(const Key& key) const {
  // A pass asks for the job after the one it was given last: check the remembered place first.
  std::size_t p = prefix_hint_;
  if (p <= prefix_.size() && (p == prefix_.size() || key < prefix_[p]) && (p == 0 || !(key < prefix_[p - 1]))) {
    return p;
  }
  return static_cast<std::size_t>(std::upper_bound(prefix_.begin(), prefix_.end(), key) - prefix_.begin());
}

void PriorityIndex::prefix_insert(const Key& key) {
  if (cover_ == Cover::NONE || (cover_ == Cover::UPTO && prefix_limit_ < key)) {
    return; // past what the prefix holds: passes find it through the merge
  }
  auto it = std::lower_bound(prefix_.begin(), prefix_.end(), key);
  if (static_cast<std::size_t>(it - prefix_.begin()) < prefix_hint_) {
    ++prefix_hint_;
  }
  prefix_.insert(it, key);
  if (prefix_.size() > prefix_jobs_) {
    prefix_.pop_back();
    if (prefix_.empty()) {
      prefix_reset();
      return;
    }
    prefix_limit_ = prefix_.back();
    cover_ = Cover::UPTO;
  }
}

void PriorityIndex::prefix_erase(const Key& key) {
  auto it = std::lower_bound(prefix_.begin(), prefix_.end(), key);
  if (it != prefix_.end() && *it == key) {
    if (static_cast<std::size_t>(it - prefix_.begin()) < prefix_hint_) {
      --prefix_hint_;
    }
    prefix_.erase(it); // the limit stays: every queued job up to it is still held
  }
}

void PriorityIndex::prefix_reset() {
  prefix_.clear();
  cover_ = Cover::NONE;
}

std::optional<std::int64_t> PriorityIndex::priority_of(model::JobId job) const {
  auto it = jobs_.find(job);
  if (it == jobs_.end()) {
    return std::nullopt;
  }
  const Job& j = it->second;
  std::int64_t age = std::clamp(now_unit_ - j.submit_unit, std::int64_t{0}, params_.max_age_units);
  return j.base + users_.at(j.user).term + age;
}

std::optional<QueueKey> PriorityIndex::find(model::JobId job) const {
  auto p = priority_of(job);
  if (!p) {
    return std::nullopt;
  }
  return QueueKey{static_cast<double>(-*p), jobs_.at(job).submit_time_s, job};
}

} // namespace acme::policies
