#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include "policies/scheduling/pass_queue.hpp"
#include "sim/model/ids.hpp"
#include "sim/model/job.hpp"

namespace acme::policies {

/// Jobs a PriorityIndex keeps in pass order in a flat array (its prefix), by default: the first jobs of
/// the queue, where passes spend their steps (a Slurm backfill pass tests at most bf_max_job_test = 500).
inline constexpr std::size_t PRIORITY_INDEX_PREFIX_JOBS = 1024;

/// Largest magnitude of a job's base term, a user's fair-share term, the age cap in units and of
/// submit_time_s / age_unit_s: with each at most 2^50 every priority and intermediate sum stays below
/// 2^53 in magnitude, so it is exact both in int64 and in the double of a QueueKey.
inline constexpr std::int64_t PRIORITY_INDEX_MAX_TERM = std::int64_t{1} << 50;

/// The integer age of a multifactor priority. Slurm: age_unit_s = PriorityMaxAge / PriorityWeightAge,
/// max_age_units = PriorityWeightAge (the age term grows by one per unit up to its weight).
struct PriorityIndexParams {
  double age_unit_s = 1.0;        ///< seconds per age unit (> 0)
  std::int64_t max_age_units = 0; ///< age cap, in units (>= 0)
};

/// A queue in descending integer multifactor priority, kept incrementally: a recalculation costs
/// O(users log users + jobs whose age class changes) and add and drop O(log n), whatever the backlog; a pass
/// step costs O(log users + log jobs of one user). Memory: up to three tree or hash nodes per job.
///
/// At the priority time T (set by recalc(), 0 s until the first one) a job's priority is
///   P = base + fs(user) + age,  age = clamp(floor(T / u) - floor(submit / u), 0, max_age_units)
/// (u = age_unit_s): the age counts unit boundaries crossed since submission, so it is additive. The
/// pass order is P descending, then submit time, then job id (a total order). Priorities are frozen
/// between recalculations: a job queued in between gets its priority at T as well, exactly as a full
/// sort at T would rank it (a job submitted after T has age 0).
///
/// Each user keeps three sequences whose internal order never changes: jobs submitted after T (by
/// base), jobs still ageing (by base - floor(submit / u)), jobs at the age cap (by base); a job moves
/// forward through them at most twice. The pass order is a merge over the sequences' heads.
///
/// The first jobs in pass order (at most `prefix_jobs`) are also kept in a sorted array, filled as passes
/// walk the merge and kept by add and drop until the next recalc() or set_user_term(): a pass step inside
/// it is a binary search over contiguous keys instead of a merge step. Add and drop cost O(prefix_jobs)
/// more when the job falls inside it.
class PriorityIndex final : public PassQueue {
public:
  /// The base term (class / QoS, already weighted) of a job queued through the PassQueue interface.
  using BaseOf = std::function<std::int64_t(const model::JobSpec&)>;

  PriorityIndex(PriorityIndexParams params, BaseOf base_of, std::size_t prefix_jobs = PRIORITY_INDEX_PREFIX_JOBS);

  /// Queues a job (a job already queued is queued again with these fields). |base| and
  /// |submit_time_s / age_unit_s| must be at most PRIORITY_INDEX_MAX_TERM.
  void add_job(model::JobId job, model::UserId user, std::int64_t base, double submit_time_s);
  /// Sets the fair-share term of `user` (0 for a user never set), effective at once; |term| at most
  /// PRIORITY_INDEX_MAX_TERM. The caller changes it at recalculations.
  void set_user_term(model::UserId user, std::int64_t term);
  /// Moves the priority time to `now_s` (never backwards): the ages of queued jobs grow to it.
  void recalc(double now_s);

  double get_priority_time() const { return priority_time_s_; }
  /// P of a queued job at the priority time; nullopt when it is not queued.
  std::optional<std::int64_t> priority_of(model::JobId job) const;
  std::size_t size() const { return jobs_.size(); }

  /// add_job(job.id, job.user, base_of(job), job.submit_time_s); `key` is not used: the index
  /// computes every job's position itself.
  void add(const QueueKey& key, const model::JobSpec& job) override;
  void drop(model::JobId job) override;
  /// {-P, submit time, id} at the priority time: keys compare in pass order.
  std::optional<QueueKey> find(model::JobId job) const override;
  std::optional<QueueKey> first_in_pass() override;
  /// The first job after `key` in the order at the priority time (`step` is not used). `key` need not
  /// be queued any more (the job started). Jobs added during a pass are seen when their key comes after
  /// the job the pass examines, and jobs dropped are not. After recalc() or set_user_term() the pass
  /// goes on after where `key` falls in the new order.
  std::optional<QueueKey> next_in_pass(const QueueKey& key, Step step) override;
  /// Inside the prefix: the job `ahead` places after the one given last (a hint; stale after changes).
  std::optional<model::JobId> peek_ahead(std::size_t ahead) const override;

private:
  /// A position: -P, submit time, id. In a sequence, -P is relative to the sequence's offset.
  struct Key {
    std::int64_t neg_priority = 0;
    double submit_time_s = 0.0;
    model::JobId job{};
    friend auto operator<=>(const Key&, const Key&) = default;
  };
  /// Where a job stands relative to the priority time; jobs only move forward.
  enum class Phase : std::uint8_t { YOUNG, AGEING, CAPPED };
  static constexpr std::size_t PHASES = 3;
  /// Jobs of one user in one phase, ordered by relative key; P = offset - relative neg_priority.
  struct Seq {
    std::set<Key> jobs;
    std::int64_t offset = 0;
    std::optional<Key> head;             ///< its entry in heads_
    std::optional<Key> frontier;         ///< its entry in frontier_
    std::set<Key>::iterator frontier_at; ///< the job of `frontier` in `jobs` (valid while frontier is set)
  };
  struct User {
    std::int64_t term = 0;
    std::array<Seq, PHASES> seqs;
  };
  struct Job {
    model::UserId user{};
    std::int64_t base = 0;
    double submit_time_s = 0.0;
    std::int64_t submit_unit = 0;
    Phase phase = Phase::YOUNG;
  };
  using UnitSet = std::set<std::pair<std::int64_t, model::JobId>>;

  std::int64_t unit_of(double time_s) const;
  Phase phase_of(std::int64_t submit_unit) const;
  std::int64_t offset_of(const User& user, Phase phase) const;
  Key relative_key(model::JobId id, const Job& job) const;
  static Key global_key(const Seq& seq, const Key& relative);
  static Key relative_to(const Seq& seq, const Key& global);
  static QueueKey to_queue_key(const Key& key);
  static Key from_queue_key(const QueueKey& key);
  User& user_at(model::UserId user);
  void set_offsets(User& user) const;
  Seq& seq_of(const Job& job) { return users_.at(job.user).seqs[static_cast<std::size_t>(job.phase)]; }

  void insert(model::JobId id, Job& job);
  void erase(model::JobId id, Job& job);
  void move_phase(UnitSet& from, std::int64_t last_unit);
  void update_head(Seq& seq);
  void update_frontier(Seq& seq);
  /// The pass moved onto the job `at` of `seq`: its frontier becomes the job after it.
  void step_frontier(Seq& seq, std::set<Key>::iterator at);
  void rebuild_heads();
  void end_pass();
  void reposition(const Key& key);
  std::optional<Key> advance();
  /// The first queued job after `after` (the first of all without it): from the prefix, else the merge.
  std::optional<QueueKey> successor(const std::optional<Key>& after);
  /// The merge's first job after `after` (the first of all without it).
  std::optional<Key> merge_after(const std::optional<Key>& after);
  Key key_of(model::JobId id, const Job& job) { return global_key(seq_of(job), relative_key(id, job)); }
  /// The first place in prefix_ whose key is after `key`.
  std::size_t prefix_upper_bound(const Key& key) const;
  void prefix_insert(const Key& key);
  void prefix_erase(const Key& key);
  void prefix_reset();

  PriorityIndexParams params_;
  BaseOf base_of_;
  double priority_time_s_ = 0.0;
  std::int64_t now_unit_ = 0;
  std::unordered_map<model::JobId, Job> jobs_;
  std::unordered_map<model::UserId, User> users_; ///< node-based: Seq addresses are stable
  UnitSet young_;                                 ///< YOUNG jobs by submit unit
  UnitSet ageing_;                                ///< AGEING jobs by submit unit
  std::map<Key, Seq*> heads_;                     ///< first job of every non-empty sequence
  // The pass: cursor_ is the job it examines. A sequence whose head is not after the cursor has its
  // first job after the cursor in frontier_; the next job is the least of frontier_ and the heads after
  // the cursor. frontier_ is a min-heap (no allocation per step); an entry whose sequence has moved on
  // (its key is no longer the sequence's frontier) is stale and skipped when it comes to the top.
  std::optional<Key> cursor_;
  std::vector<std::pair<Key, Seq*>> frontier_;
  /// Drops stale entries from the top of frontier_.
  void drop_stale_frontier();
  /// How much of the queue prefix_ holds: nothing known (it is empty), every queued job up to
  /// prefix_limit_ (inclusive; the limit need not be queued), or every queued job.
  enum class Cover : std::uint8_t { NONE, UPTO, ALL };
  std::size_t prefix_jobs_;
  std::vector<Key> prefix_;     ///< sorted
  std::size_t prefix_hint_ = 0; ///< prefix_upper_bound of the job a pass was given last (checked before use)
  Cover cover_ = Cover::NONE;
  Key prefix_limit_;
};

} // namespace acme::policies
