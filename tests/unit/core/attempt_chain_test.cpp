#include <catch2/catch.hpp>

#include <cmath>

#include "sim/core/attempt_chain.hpp"

using namespace acme;

namespace {
model::JobSpec attempt(std::uint64_t id, std::uint64_t run, double submit_s, double delay_s) {
  model::JobSpec s;
  s.id = model::JobId{id};
  s.run = model::RunId{run};
  s.submit_time_s = submit_s;
  s.duration_s = 100.0;
  s.resubmit_delay_s = delay_s;
  return s;
}
} // namespace

TEST_CASE("core::attempt_chain: a run's next attempt waits for the previous one to end", "[core][attempt_chain]") {
  core::AttemptChain chain;
  SECTION("jobs outside runs and first attempts go in at once") {
    model::JobSpec plain = attempt(1, 0, 0.0, 600.0);
    CHECK_FALSE(chain.hold(plain));
    model::JobSpec first = attempt(2, 7, 0.0, model::UNKNOWN_TIME_S);
    CHECK_FALSE(chain.hold(first));
    CHECK(chain.empty());
  }
  SECTION("held while the previous attempt is active, then submitted its delay after that one ends") {
    model::JobSpec first = attempt(1, 7, 0.0, model::UNKNOWN_TIME_S);
    chain.on_submitted(first);
    model::JobSpec second = attempt(2, 7, 700.0, 600.0); // drawn as if the first started at once
    REQUIRE(chain.hold(second));
    CHECK(std::isinf(chain.next_time_s()));
    chain.on_ended(model::JobId{1}, 5000.0); // the first waited in the queue
    CHECK(chain.next_time_s() == 5600.0);
    CHECK(chain.take_due(5599.0).empty());
    auto due = chain.take_due(5600.0);
    REQUIRE(due.size() == 1);
    CHECK(due[0].id == model::JobId{2});
    CHECK(due[0].submit_time_s == 5600.0);
    CHECK(chain.empty());
  }
  SECTION("three attempts: each waits for the one before it") {
    chain.on_submitted(attempt(1, 7, 0.0, model::UNKNOWN_TIME_S));
    model::JobSpec second = attempt(2, 7, 700.0, 600.0);
    model::JobSpec third = attempt(3, 7, 1400.0, 600.0);
    REQUIRE(chain.hold(second));
    REQUIRE(chain.hold(third));
    chain.on_ended(model::JobId{1}, 2000.0);
    auto due = chain.take_due(2600.0);
    REQUIRE(due.size() == 1);
    CHECK(due[0].id == model::JobId{2});
    chain.on_submitted(due[0]);
    CHECK(std::isinf(chain.next_time_s())); // the third still waits for the second
    chain.on_ended(model::JobId{2}, 3000.0);
    due = chain.take_due(3600.0);
    REQUIRE(due.size() == 1);
    CHECK(due[0].id == model::JobId{3});
    CHECK(due[0].submit_time_s == 3600.0);
  }
  SECTION("an attempt whose predecessor has ended goes in at its drawn time") {
    chain.on_submitted(attempt(1, 7, 0.0, model::UNKNOWN_TIME_S));
    chain.on_ended(model::JobId{1}, 100.0);
    model::JobSpec second = attempt(2, 7, 700.0, 600.0);
    CHECK_FALSE(chain.hold(second));
    CHECK(second.submit_time_s == 700.0);
  }
  SECTION("runs do not wait for each other; due attempts come out by time, then id") {
    chain.on_submitted(attempt(1, 7, 0.0, model::UNKNOWN_TIME_S));
    chain.on_submitted(attempt(2, 8, 0.0, model::UNKNOWN_TIME_S));
    model::JobSpec a = attempt(3, 7, 700.0, 600.0);
    model::JobSpec b = attempt(4, 8, 700.0, 600.0);
    REQUIRE(chain.hold(b));
    REQUIRE(chain.hold(a));
    chain.on_ended(model::JobId{2}, 1000.0);
    chain.on_ended(model::JobId{1}, 1000.0);
    auto due = chain.take_due(1600.0);
    REQUIRE(due.size() == 2);
    CHECK(due[0].id == model::JobId{3});
    CHECK(due[1].id == model::JobId{4});
  }
}

TEST_CASE("core::attempt_chain: runs numbered alike on two clusters are chained apart", "[core][attempt_chain]") {
  // A workload numbers each cluster's runs from 1: run 7 of one cluster is not run 7 of the other.
  core::AttemptChain chain;
  chain.on_submitted(attempt(1, 7, 0.0, model::UNKNOWN_TIME_S)); // cluster 0, still active
  model::JobSpec other = attempt(2, 7, 700.0, 600.0);
  other.cluster = model::ClusterId{1};
  CHECK_FALSE(chain.hold(other)); // its run has no attempt active on its own cluster
}
