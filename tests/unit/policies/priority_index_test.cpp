#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "policies/scheduling/priority_index.hpp"

using namespace acme;
using policies::PriorityIndex;
using policies::PriorityIndexParams;
using policies::QueueKey;
using policies::Step;

namespace {

constexpr double UNIT_S = 60.0;

model::JobId job_id(std::uint64_t id) {
  return model::JobId{id};
}
model::UserId user_id(std::uint32_t id) {
  return model::UserId{id};
}

/// The priority definition, computed for the whole queue from scratch.
struct Reference {
  struct Job {
    model::UserId user{};
    std::int64_t base = 0;
    double submit_time_s = 0.0;
  };
  PriorityIndexParams params;
  double priority_time_s = 0.0;
  std::map<model::JobId, Job> jobs;
  std::map<model::UserId, std::int64_t> terms;

  std::int64_t unit(double t) const { return static_cast<std::int64_t>(std::floor(t / params.age_unit_s)); }
  std::int64_t priority(const Job& j) const {
    std::int64_t age = std::clamp(unit(priority_time_s) - unit(j.submit_time_s), std::int64_t{0}, params.max_age_units);
    auto term = terms.find(j.user);
    return j.base + (term == terms.end() ? 0 : term->second) + age;
  }
  QueueKey key(model::JobId id) const {
    const Job& j = jobs.at(id);
    return {-static_cast<double>(priority(j)), j.submit_time_s, id};
  }
  /// Every queued job sorted by (P desc, submit, id).
  std::vector<QueueKey> sorted() const {
    std::vector<QueueKey> out;
    for (const auto& [id, j] : jobs) {
      out.push_back(key(id));
    }
    std::sort(out.begin(), out.end(), [](const QueueKey& a, const QueueKey& b) {
      if (a.primary != b.primary) {
        return a.primary < b.primary;
      }
      return a.secondary != b.secondary ? a.secondary < b.secondary : a.job < b.job;
    });
    return out;
  }
  std::set<QueueKey> key_set() const {
    auto s = sorted();
    return {s.begin(), s.end()};
  }
};

std::vector<QueueKey> walk(PriorityIndex& q) {
  std::vector<QueueKey> out;
  for (auto k = q.first_in_pass(); k; k = q.next_in_pass(*k, Step::WAITING)) {
    out.push_back(*k);
  }
  return out;
}

std::vector<model::JobId> walk_ids(PriorityIndex& q) {
  std::vector<model::JobId> out;
  for (const auto& k : walk(q)) {
    out.push_back(k.job);
  }
  return out;
}

PriorityIndex make_index(std::int64_t max_age_units) {
  return PriorityIndex({UNIT_S, max_age_units}, [](const model::JobSpec&) { return std::int64_t{0}; });
}

/// A random queue driven side by side with the reference.
struct Harness {
  std::mt19937_64 rng{20260512};
  Reference ref;
  PriorityIndex q;
  static constexpr std::uint64_t JOB_IDS = 300;
  static constexpr std::uint32_t USERS = 6;

  explicit Harness(PriorityIndexParams params, std::size_t prefix_jobs = policies::PRIORITY_INDEX_PREFIX_JOBS)
      : q(
            params, [](const model::JobSpec&) { return std::int64_t{0}; }, prefix_jobs) {
    ref.params = params;
  }
  std::int64_t uniform(std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  }
  void add() {
    auto id = job_id(static_cast<std::uint64_t>(uniform(0, JOB_IDS - 1)));
    auto user = user_id(static_cast<std::uint32_t>(uniform(0, USERS - 1)));
    std::int64_t base = uniform(-30, 30);
    // Submitted before the priority time (some long enough to be capped) or after it (age 0); a third
    // exactly on a unit boundary.
    double submit = std::max(0.0, ref.priority_time_s + static_cast<double>(uniform(-3000, 600)));
    if (uniform(0, 2) == 0) {
      submit = std::floor(submit / UNIT_S) * UNIT_S;
    } else {
      submit += static_cast<double>(uniform(0, 999)) / 1000.0;
    }
    q.add_job(id, user, base, submit);
    ref.jobs[id] = {user, base, submit};
  }
  void drop(model::JobId id) {
    q.drop(id);
    ref.jobs.erase(id);
  }
  void drop_random() { drop(job_id(static_cast<std::uint64_t>(uniform(0, JOB_IDS - 1)))); }
  void recalc() {
    double step = static_cast<double>(uniform(0, 400));
    double now = ref.priority_time_s + step;
    if (uniform(0, 3) == 0) {
      now = std::ceil(now / UNIT_S) * UNIT_S;
    }
    q.recalc(now);
    ref.priority_time_s = now;
  }
  void set_term() {
    auto user = user_id(static_cast<std::uint32_t>(uniform(0, USERS - 1)));
    std::int64_t term = uniform(-15, 15);
    q.set_user_term(user, term);
    ref.terms[user] = term;
  }
  void check_all() {
    REQUIRE(q.size() == ref.jobs.size());
    REQUIRE(walk(q) == ref.sorted());
    for (const auto& [id, j] : ref.jobs) {
      REQUIRE(q.priority_of(id) == ref.priority(j));
      REQUIRE(q.find(id) == ref.key(id));
    }
  }
  /// A pass that stops after a few jobs, as a pass stops at its depth or when the GPUs run out.
  void check_partial_pass() {
    auto expected = ref.sorted();
    auto steps = static_cast<std::size_t>(uniform(1, 40));
    auto k = q.first_in_pass();
    for (std::size_t i = 0; i < steps && i < expected.size(); ++i) {
      REQUIRE(k == expected[i]);
      k = q.next_in_pass(*k, Step::WAITING);
    }
  }
  /// A pass that starts, drops and adds jobs as it goes: each step is the first job after the current
  /// one in the queue as it is now. It also resumes a few times from another queued job's key.
  void check_mutating_pass() {
    auto expected = ref.key_set();
    auto k = q.first_in_pass();
    REQUIRE(k == (expected.empty() ? std::nullopt : std::optional<QueueKey>(*expected.begin())));
    int jumps = 3;
    while (k) {
      if (jumps > 0 && uniform(0, 49) == 0) {
        --jumps;
        k = *std::next(expected.begin(), uniform(0, static_cast<std::int64_t>(expected.size()) - 1));
      }
      int op = static_cast<int>(uniform(0, 99));
      if (op < 30) { // the job started
        drop(k->job);
      } else if (op < 40) {
        drop_random();
      } else if (op < 55) {
        add();
      } else if (op < 57) {
        recalc();
      } else if (op < 59) {
        set_term();
      }
      expected = ref.key_set();
      auto next = q.next_in_pass(*k, Step::STARTED);
      auto after = expected.upper_bound(*k);
      REQUIRE(next == (after == expected.end() ? std::nullopt : std::optional<QueueKey>(*after)));
      k = next;
    }
  }
};

} // namespace

TEST_CASE("policies::priority_index: ageing jobs overtake capped ones until they reach the cap",
          "[policies][priority_index]") {
  PriorityIndex q = make_index(10); // 10 units of 60 s: capped after 600 s
  q.add_job(job_id(1), user_id(1), 100, 0.0);
  q.add_job(job_id(2), user_id(1), 105, 600.0);
  q.recalc(600.0);
  CHECK(q.priority_of(job_id(1)) == 110); // capped: 100 + 10
  CHECK(q.priority_of(job_id(2)) == 105); // age 0
  CHECK(walk_ids(q) == std::vector{job_id(1), job_id(2)});
  q.recalc(1199.0);
  CHECK(q.priority_of(job_id(2)) == 114); // 9 boundaries crossed
  CHECK(walk_ids(q) == std::vector{job_id(2), job_id(1)});
  q.recalc(1200.0);
  CHECK(q.priority_of(job_id(2)) == 115); // capped: 105 + 10
  CHECK(q.priority_of(job_id(1)) == 110);
  // Submitted at 59.9 s, in unit 0 like job 1: also capped at 110, behind job 1 by submit time.
  q.add_job(job_id(3), user_id(2), 100, 59.9);
  CHECK(walk_ids(q) == std::vector{job_id(2), job_id(1), job_id(3)});
  CHECK(q.find(job_id(3)) == QueueKey{-110.0, 59.9, job_id(3)});
}

TEST_CASE("policies::priority_index: age counts unit boundaries crossed; later submissions have age 0",
          "[policies][priority_index]") {
  PriorityIndex q = make_index(100);
  q.recalc(170.0);
  q.add_job(job_id(1), user_id(1), 0, 120.0); // exactly on the boundary of unit 2
  q.add_job(job_id(2), user_id(1), 0, 119.0); // unit 1
  q.add_job(job_id(3), user_id(1), 0, 300.0); // after the priority time: age 0, not negative
  CHECK(q.get_priority_time() == 170.0);
  CHECK(q.priority_of(job_id(1)) == 0);
  CHECK(q.priority_of(job_id(2)) == 1);
  CHECK(q.priority_of(job_id(3)) == 0);
  CHECK(walk_ids(q) == std::vector{job_id(2), job_id(1), job_id(3)});
  q.recalc(180.0);
  CHECK(q.priority_of(job_id(1)) == 1);
  CHECK(q.priority_of(job_id(2)) == 2);
  CHECK(q.priority_of(job_id(3)) == 0);
  q.recalc(420.0);
  CHECK(q.priority_of(job_id(1)) == 5);
  CHECK(q.priority_of(job_id(3)) == 2);
}

TEST_CASE("policies::priority_index: a fair-share change reorders two users' jobs", "[policies][priority_index]") {
  PriorityIndex q = make_index(100);
  q.add_job(job_id(1), user_id(1), 10, 0.0);
  q.add_job(job_id(2), user_id(2), 10, 30.0);
  q.recalc(120.0);
  CHECK(q.priority_of(job_id(1)) == 12);
  CHECK(q.priority_of(job_id(2)) == 12);
  CHECK(walk_ids(q) == std::vector{job_id(1), job_id(2)}); // equal priority: earlier submit first
  q.set_user_term(user_id(1), -5);
  CHECK(q.priority_of(job_id(1)) == 7);
  CHECK(walk_ids(q) == std::vector{job_id(2), job_id(1)});
  q.set_user_term(user_id(2), -10);
  CHECK(q.priority_of(job_id(2)) == 2);
  CHECK(walk_ids(q) == std::vector{job_id(1), job_id(2)});
}

TEST_CASE("policies::priority_index: ties are broken by submit time, then job id", "[policies][priority_index]") {
  PriorityIndex q = make_index(5);
  q.add_job(job_id(7), user_id(1), 3, 10.0);
  q.add_job(job_id(5), user_id(2), 3, 10.0);
  q.add_job(job_id(6), user_id(1), 3, 5.0);
  q.add_job(job_id(4), user_id(3), 2, 1.0);
  CHECK(walk_ids(q) == std::vector{job_id(6), job_id(5), job_id(7), job_id(4)});
  SECTION("re-adding a job moves it") {
    q.add_job(job_id(4), user_id(3), 4, 1.0);
    CHECK(q.size() == 4);
    CHECK(walk_ids(q) == std::vector{job_id(4), job_id(6), job_id(5), job_id(7)});
  }
}

TEST_CASE("policies::priority_index: PassQueue interface with a base from the job spec", "[policies][priority_index]") {
  PriorityIndex q({UNIT_S, 100}, [](const model::JobSpec& spec) {
    return spec.type == model::JobType::PRETRAIN ? std::int64_t{1000} : std::int64_t{0};
  });
  model::JobSpec a;
  a.id = job_id(1);
  a.user = user_id(1);
  a.submit_time_s = 0.0;
  model::JobSpec b = a;
  b.id = job_id(2);
  b.submit_time_s = 60.0;
  b.type = model::JobType::PRETRAIN;
  q.add(QueueKey{}, a);
  q.add(QueueKey{}, b);
  CHECK(q.find(job_id(2)) == QueueKey{-1000.0, 60.0, job_id(2)});
  CHECK_FALSE(q.find(job_id(3)));
  auto first = q.first_in_pass();
  REQUIRE(first);
  CHECK(first->job == job_id(2));
  q.drop(job_id(2)); // it started: the pass goes on after it
  auto second = q.next_in_pass(*first, Step::STARTED);
  REQUIRE(second);
  CHECK(second->job == job_id(1));
  CHECK_FALSE(q.next_in_pass(*second, Step::WAITING));
  q.drop(job_id(9)); // not queued: nothing
  CHECK(q.size() == 1);
}

TEST_CASE("policies::priority_index: passes equal a full sort under random adds, drops, recalculations",
          "[policies][priority_index]") {
  auto max_age = GENERATE(as<std::int64_t>{}, 0, 3, 20);
  // The flat prefix: none, shorter than the queue (passes leave it for the merge), longer than it.
  auto prefix_jobs = GENERATE(as<std::size_t>{}, 0, 1, 17, policies::PRIORITY_INDEX_PREFIX_JOBS);
  Harness h({UNIT_S, max_age}, prefix_jobs);
  for (int round = 0; round < 2500; ++round) {
    int op = static_cast<int>(h.uniform(0, 99));
    if (op < 45) {
      h.add();
    } else if (op < 70) {
      h.drop_random();
    } else if (op < 82) {
      h.recalc();
    } else if (op < 87) {
      h.set_term();
    } else if (op < 92) {
      h.check_partial_pass();
    } else {
      h.check_mutating_pass();
    }
    h.check_all();
  }
}

TEST_CASE("policies::priority_index: peek_ahead names the jobs a pass reaches next inside the prefix",
          "[policies][priority_index]") {
  PriorityIndex q = make_index(5);
  for (std::uint64_t id = 1; id <= 6; ++id) {
    q.add_job(job_id(id), user_id(static_cast<std::uint32_t>(id % 3)), static_cast<std::int64_t>(id), 0.0);
  }
  CHECK_FALSE(q.peek_ahead(1));                  // nothing walked yet: the prefix is empty
  std::vector<model::JobId> order = walk_ids(q); // the first pass fills the prefix
  REQUIRE(order.size() == 6);
  auto key = q.first_in_pass();
  for (std::size_t at = 0; key; ++at) {
    REQUIRE(key->job == order[at]);
    for (std::size_t ahead = 1; ahead <= 3; ++ahead) {
      if (at + ahead < order.size()) {
        CHECK(q.peek_ahead(ahead) == order[at + ahead]);
      } else {
        CHECK_FALSE(q.peek_ahead(ahead));
      }
    }
    key = q.next_in_pass(*key, Step::WAITING);
  }
  CHECK_FALSE(q.peek_ahead(0));
}
