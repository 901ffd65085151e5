#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "sim/metrics/fairness.hpp"

using namespace acme::metrics;
using acme::model::NameTable;

TEST_CASE("metrics::fairness: Jain's index of known values", "[metrics][fairness]") {
  SECTION("three users: (sum x)^2 / (n sum x^2)") {
    std::vector<double> waits_s{10.0, 20.0, 30.0};
    REQUIRE(jain_index(waits_s) == Approx(3600.0 / (3.0 * 1400.0))); // 60^2 / (3 (100 + 400 + 900)) = 6/7
  }
  SECTION("one user served, the others nothing: 1/n") {
    std::vector<double> gpu_hours{0.0, 0.0, 5.0, 0.0};
    REQUIRE(jain_index(gpu_hours) == Approx(0.25));
  }
  SECTION("equal values: 1") {
    std::vector<double> equal{7.5, 7.5, 7.5};
    REQUIRE(jain_index(equal) == Approx(1.0));
  }
  SECTION("edge cases are defined as 1: one user, all zero, nobody") {
    std::vector<double> one{42.0};
    std::vector<double> zeros{0.0, 0.0, 0.0};
    REQUIRE(jain_index(one) == 1.0);
    REQUIRE(jain_index(zeros) == 1.0);
    REQUIRE(jain_index(std::vector<double>{}) == 1.0);
  }
}

TEST_CASE("metrics::fairness: per-user figures from a tally", "[metrics][fairness]") {
  NameTable names;
  auto carol = names.intern("carol"); // interned first: ties must still follow the names
  auto alice = names.intern("alice");
  auto bob = names.intern("bob");
  constexpr double HOUR_S = 3600.0;
  UserTally tally;
  tally.add(carol, 20.0, HOUR_S);
  tally.add(alice, 10.0, HOUR_S);
  tally.add(bob, 30.0, HOUR_S);
  tally.add(carol, 40.0, HOUR_S);

  SECTION("three users with known waits and GPU hours") {
    // Mean waits 10 (alice), 30 (bob), 30 (carol): 70^2 / (3 (100 + 900 + 900)) = 4900/5700.
    // GPU hours 1, 1, 2: shares 0.25, 0.25, 0.5; 4^2 / (3 (1 + 1 + 4)) = 16/18.
    Fairness f = tally.fairness(names);
    REQUIRE(f.users == 3);
    REQUIRE(f.mean_wait_jain == Approx(4900.0 / 5700.0));
    REQUIRE(f.gpu_hours_jain == Approx(16.0 / 18.0));
    REQUIRE(f.worst_served.size() == 3);
    REQUIRE(f.worst_served[0].user == "bob"); // ties at 30 s: by name
    REQUIRE(f.worst_served[1].user == "carol");
    REQUIRE(f.worst_served[1].jobs == 2);
    REQUIRE(f.worst_served[1].mean_wait_s == Approx(30.0));
    REQUIRE(f.worst_served[1].gpu_hour_share == Approx(0.5));
    REQUIRE(f.worst_served[2].user == "alice");
    REQUIRE(f.worst_served[2].gpu_hour_share == Approx(0.25));
  }
  SECTION("merging tallies adds each user's sums") {
    UserTally other;
    other.add(alice, 50.0, 2 * HOUR_S); // alice: 2 jobs, mean (10 + 50) / 2 = 30 s, 3 of 6 GPU hours
    tally.merge(other);
    Fairness f = tally.fairness(names);
    REQUIRE(f.mean_wait_jain == Approx(1.0));
    REQUIRE(f.worst_served[0].user == "alice");
    REQUIRE(f.worst_served[0].gpu_hour_share == Approx(0.5));
  }
  SECTION("the same figures and text whatever order the users were interned in") {
    NameTable other_names;
    UserTally other;
    other.add(other_names.intern("bob"), 30.0, HOUR_S);
    other.add(other_names.intern("alice"), 10.0, HOUR_S);
    auto c = other_names.intern("carol");
    other.add(c, 20.0, HOUR_S);
    other.add(c, 40.0, HOUR_S);
    REQUIRE(fairness_json(other.fairness(other_names)) == fairness_json(tally.fairness(names)));
  }
}

TEST_CASE("metrics::fairness: edge cases and the worst-served list", "[metrics][fairness]") {
  NameTable names;
  SECTION("one user: both indexes 1") {
    UserTally tally;
    tally.add(names.intern("solo"), 500.0, 10.0);
    Fairness f = tally.fairness(names);
    REQUIRE(f.users == 1);
    REQUIRE(f.mean_wait_jain == 1.0);
    REQUIRE(f.gpu_hours_jain == 1.0);
    REQUIRE(f.worst_served.size() == 1);
    REQUIRE(f.worst_served[0].gpu_hour_share == 1.0);
  }
  SECTION("nobody waited: index 1 and nobody listed as worst served") {
    UserTally tally;
    tally.add(names.intern("a"), 0.0, 10.0);
    tally.add(names.intern("b"), 0.0, 30.0);
    Fairness f = tally.fairness(names);
    REQUIRE(f.mean_wait_jain == 1.0);
    REQUIRE(f.gpu_hours_jain == Approx(1600.0 / (2.0 * 1000.0)));
    REQUIRE(f.worst_served.empty());
  }
  SECTION("no jobs at all") {
    Fairness f = UserTally{}.fairness(names);
    REQUIRE(f.users == 0);
    REQUIRE(f.mean_wait_jain == 1.0);
    REQUIRE(fairness_json(f) == R"({"users": 0, "mean_wait_jain": 1, "gpu_hours_jain": 1, "worst_served": []})");
  }
  SECTION("at most five users listed, the longest waits first") {
    UserTally tally;
    for (int u = 0; u < 7; ++u) {
      tally.add(names.intern("user" + std::to_string(u)), 100.0 * u, 1.0);
    }
    Fairness f = tally.fairness(names);
    REQUIRE(f.users == 7);
    REQUIRE(f.worst_served.size() == Fairness::WORST_SERVED);
    REQUIRE(f.worst_served.front().user == "user6");
    REQUIRE(f.worst_served.back().user == "user2");
    REQUIRE(f.worst_served.back().gpu_hour_share == Approx(1.0 / 7.0));
  }
}
