#include <catch2/catch.hpp>

#include <random>
#include <set>
#include <vector>

#include "policies/scheduling/windowed_queue.hpp"

using namespace acme;
using policies::QueuedJob;
using policies::QueueKey;
using policies::WindowedQueue;

namespace {

QueueKey key(double primary, std::uint32_t job) {
  return {primary, 0.0, model::JobId{job}};
}

/// Walks the queue the way a scheduling pass does (begin, next) and returns the job order.
std::vector<QueueKey> walk(WindowedQueue& q) {
  std::vector<QueueKey> out;
  for (auto it = q.begin(); it != q.end(); it = q.next(it)) {
    out.push_back(*it);
  }
  return out;
}

} // namespace

TEST_CASE("policies::windowed_queue: order equals a sorted set under inserts, erases and rekeys", "[policies][queue]") {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> priority(0.0, 1000.0);
  WindowedQueue q;
  std::set<QueueKey> reference;
  std::vector<double> current(3000, -1.0); // the key of each queued job, -1 when not queued
  for (int step = 0; step < 20000; ++step) {
    auto id = static_cast<std::uint32_t>(rng() % current.size());
    int op = static_cast<int>(rng() % 100);
    if (op < 55) { // insert, or move a queued job to a new key
      if (current[id] >= 0.0) {
        reference.erase(key(current[id], id));
      }
      current[id] = priority(rng);
      q.insert(key(current[id], id), QueuedJob{model::JobId{id}, 0.0, {}, model::JobType::OTHER});
      reference.insert(key(current[id], id));
    } else if (op < 95) { // a job starts or is cancelled
      bool queued = current[id] >= 0.0;
      REQUIRE(q.erase(model::JobId{id}) == queued);
      if (queued) {
        reference.erase(key(current[id], id));
        current[id] = -1.0;
      }
    } else { // dynamic priorities: every key changes
      q.rekey([&](const QueuedJob& job) {
        auto j = model::to_index(job.id);
        current[j] = priority(rng);
        return key(current[j], static_cast<std::uint32_t>(j));
      });
      reference.clear();
      for (std::uint32_t j = 0; j < current.size(); ++j) {
        if (current[j] >= 0.0) {
          reference.insert(key(current[j], j));
        }
      }
    }
    REQUIRE(q.size() == reference.size());
    if (step % 97 == 0) { // a full walk now and then (it extends the window through the reserve)
      REQUIRE(walk(q) == std::vector<QueueKey>(reference.begin(), reference.end()));
    } else if (!reference.empty()) {
      REQUIRE(*q.begin() == *reference.begin());
    }
  }
}
