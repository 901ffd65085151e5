#include "tests/unit/policies/policy_driver.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "policies/builtin.hpp"
#include "policies/placement/first_fit.hpp"
#include "sim/config/config.hpp"
#include "sim/model/rng.hpp"

namespace acme::test {
namespace {
constexpr double NEVER = std::numeric_limits<double>::infinity();
constexpr int MAX_CALLS_PER_INSTANT = 1000;
} // namespace

model::ClusterShape make_shape(std::uint32_t nodes, std::uint32_t gpus_per_node, std::uint32_t nodes_per_leaf) {
  model::ClusterShape s;
  s.name = "test";
  s.nodes = nodes;
  s.gpus_per_node = gpus_per_node;
  s.cpu_pool_cores = 64;
  if (nodes_per_leaf > 0) {
    for (std::uint32_t n = 0; n < nodes; ++n) {
      s.leaf_of_node.push_back(n / nodes_per_leaf);
    }
    s.leaves = (nodes + nodes_per_leaf - 1) / nodes_per_leaf;
  }
  return s;
}

model::JobSpec make_job(std::uint64_t id, std::uint32_t gpus, double submit_s, double duration_s, model::JobType type,
                        std::uint32_t user) {
  model::JobSpec j;
  j.id = model::JobId{id};
  j.gpus = gpus;
  j.cpus = gpus == 0 ? 1 : 0;
  j.submit_time_s = submit_s;
  j.duration_s = duration_s;
  j.type = type;
  j.user = model::UserId{user};
  return j;
}

std::unique_ptr<policies::PlacementPolicy> first_fit() {
  return std::make_unique<policies::FirstFitPlacement>();
}

namespace {
const policies::PolicyRegistries& registries() {
  static const policies::PolicyRegistries r = policies::make_builtin_registries();
  return r;
}
config::PolicySpec spec_of(const char* family, const std::string& yaml) {
  config::Node root = config::load_yaml_text(std::string(family) + ": " + yaml, "t.yaml");
  return config::parse_policy(root[family], family, "fifo");
}
} // namespace

std::unique_ptr<policies::Scheduler> make_scheduler(const std::string& yaml) {
  return registries().schedulers.create(spec_of("scheduler", yaml), {42, "test", ""});
}

std::unique_ptr<policies::PlacementPolicy> make_placement(const std::string& yaml) {
  return registries().placements.create(spec_of("placement", yaml), {42, "test", ""});
}

std::vector<model::JobSpec> random_workload(std::uint64_t seed, std::size_t jobs, std::uint32_t nodes,
                                            std::uint32_t gpus_per_node) {
  model::Rng rng(seed, "test/workload");
  constexpr double MEAN_GAP_S = 8.0;
  constexpr double MAX_DURATION_S = 300.0;
  std::vector<model::JobSpec> out;
  double t = 0.0;
  for (std::size_t i = 0; i < jobs; ++i) {
    t += std::floor(rng.exponential(MEAN_GAP_S));
    double pick = rng.uniform();
    std::uint32_t gpus = 1;
    if (pick < 0.15) {
      gpus = gpus_per_node * static_cast<std::uint32_t>(2 + rng.below(std::max<std::uint32_t>(nodes - 1, 1)));
      gpus = std::min(gpus, nodes * gpus_per_node);
    } else if (pick < 0.3) {
      gpus = gpus_per_node;
    } else if (pick < 0.5) {
      gpus = static_cast<std::uint32_t>(2 + rng.below(gpus_per_node - 1));
    }
    double duration = 1.0 + std::floor(rng.uniform(0.0, MAX_DURATION_S));
    auto type = model::ALL_JOB_TYPES[rng.below(model::JOB_TYPE_COUNT)];
    model::JobSpec job = make_job(i, gpus, t, duration, type, static_cast<std::uint32_t>(rng.below(4)));
    if (rng.bernoulli(0.5)) {
      job.requested_time_s = std::floor(duration * rng.uniform(0.5, 3.0)) + 1.0;
    }
    out.push_back(job);
  }
  return out;
}

Driver::Driver(model::ClusterShape shape, std::unique_ptr<policies::Scheduler> scheduler,
               std::unique_ptr<policies::PlacementPolicy> placement)
    : view_(std::move(shape))
    , scheduler_(std::move(scheduler)) {
  scheduler_->set_placement(std::move(placement));
}

void Driver::add(model::JobSpec job) {
  REQUIRE(job.submit_time_s >= view_.now_s());
  records_[job.id].submit_s = job.submit_time_s;
  ++active_;
  arrivals_.emplace(job.submit_time_s, std::move(job));
}

bool Driver::is_running(std::uint64_t id) const {
  const model::JobEntry* e = view_.find_job(model::JobId{id});
  return e != nullptr && e->phase == model::JobPhase::RUNNING;
}

std::vector<std::uint64_t> Driver::started_at(double t_s) const {
  std::vector<std::uint64_t> out;
  for (const auto& [id, r] : records_) {
    if (std::find(r.starts.begin(), r.starts.end(), t_s) != r.starts.end()) {
      out.push_back(model::to_index(id));
    }
  }
  return out;
}

double Driver::next_instant() const {
  double t = arrivals_.empty() ? NEVER : arrivals_.begin()->first;
  for (const auto& [id, end] : end_at_) {
    t = std::min(t, end);
  }
  for (const auto& [id, at] : release_at_) {
    t = std::min(t, at);
  }
  if (!wakeups_.empty() && active_ > 0) {
    t = std::min(t, *wakeups_.begin());
  }
  return t;
}

void Driver::run_until(double until_s) {
  for (double t = next_instant(); t <= until_s; t = next_instant()) {
    play_instant(t);
  }
  if (until_s > view_.now_s()) {
    view_.set_now(until_s);
  }
}

bool Driver::run_to_end(std::size_t max_instants) {
  for (std::size_t i = 0; i < max_instants && active_ > 0; ++i) {
    double t = next_instant();
    if (t == NEVER) {
      return false; // jobs wait with nothing left to happen
    }
    play_instant(t);
  }
  return active_ == 0;
}

void Driver::play_instant(double t_s) {
  view_.set_now(t_s);
  std::vector<model::Event> events;
  for (int call = 0; call < MAX_CALLS_PER_INSTANT; ++call) {
    for (auto it = release_at_.begin(); it != release_at_.end();) {
      if (it->second > t_s) {
        ++it;
        continue;
      }
      model::JobId id = it->first;
      remaining_s_[id] -= t_s - view_.job(id).start_time_s;
      view_.stop_job(id);
      end_at_.erase(id);
      events.emplace_back(model::JobEnded{id, model::JobState::CANCELLED, model::EndCause::PREEMPTED});
      it = release_at_.erase(it);
    }
    for (auto it = end_at_.begin(); it != end_at_.end();) {
      if (it->second > t_s) {
        ++it;
        continue;
      }
      model::JobId id = it->first;
      if (release_at_.erase(id) > 0) {
        --records_[id].preemptions; // its service ended while it was being preempted: the preemption is moot
      }
      view_.stop_job(id);
      view_.remove_job(id);
      records_[id].end_s = t_s;
      --active_;
      events.emplace_back(model::JobEnded{id, specs_.at(id).final_state, model::EndCause::WORKLOAD});
      it = end_at_.erase(it);
    }
    while (!wakeups_.empty() && *wakeups_.begin() <= t_s) {
      events.emplace_back(model::WakeUp{*wakeups_.begin()});
      wakeups_.erase(wakeups_.begin());
    }
    while (!arrivals_.empty() && arrivals_.begin()->first <= t_s) {
      model::JobSpec spec = arrivals_.begin()->second;
      arrivals_.erase(arrivals_.begin());
      specs_[spec.id] = spec;
      remaining_s_[spec.id] = spec.duration_s;
      view_.add_job(spec);
      events.emplace_back(model::JobSubmitted{spec.id});
    }
    if (events.empty()) {
      return;
    }
    last_ = scheduler_->on_events(events, view_);
    events.clear();
    for (const auto& d : last_) {
      apply(d, events);
    }
    if (after_round) {
      after_round(*this);
    }
  }
  FAIL("an instant never settles");
}

void Driver::apply(const model::Decision& decision, std::vector<model::Event>& next) {
  const double now = view_.now_s();
  if (const auto* later = std::get_if<model::CallMeLater>(&decision)) {
    wakeups_.insert(std::max(later->time_s, now));
    return;
  }
  if (const auto* note = std::get_if<model::NoteWait>(&decision)) {
    const model::JobEntry* entry = view_.find_job(note->job);
    REQUIRE(entry != nullptr);
    REQUIRE(entry->phase == model::JobPhase::QUEUED);
    records_[note->job].reason = note->reason;
    return;
  }
  std::visit(
      [&](const auto& d) {
        using D = std::decay_t<decltype(d)>;
        if constexpr (std::is_same_v<D, model::NoteWait> || std::is_same_v<D, model::CallMeLater>) {
          return;
        } else {
          const model::JobEntry* entry = view_.find_job(d.job);
          REQUIRE(entry != nullptr);
          if constexpr (std::is_same_v<D, model::StartJob>) {
            REQUIRE(entry->phase == model::JobPhase::QUEUED);
            REQUIRE(now >= entry->spec.submit_time_s);
            REQUIRE(view_.fits(d.placement));
            std::uint64_t placed = 0;
            for (const auto& share : d.placement) {
              placed += share.gpus;
            }
            REQUIRE((entry->spec.is_fractional() || placed >= entry->spec.gpus));
            view_.start_job(d.job, d.placement);
            Record& r = records_[d.job];
            r.starts.push_back(now);
            r.placements.push_back(d.placement);
            end_at_[d.job] = now + remaining_s_.at(d.job);
          } else if constexpr (std::is_same_v<D, model::PreemptJob>) {
            REQUIRE(entry->phase == model::JobPhase::RUNNING);
            REQUIRE(release_at_.count(d.job) == 0);
            ++records_[d.job].preemptions;
            if (preempt_delay_s > 0.0) {
              release_at_[d.job] = now + preempt_delay_s;
              return;
            }
            remaining_s_[d.job] -= now - entry->start_time_s;
            view_.stop_job(d.job);
            end_at_.erase(d.job);
            next.emplace_back(model::JobEnded{d.job, model::JobState::CANCELLED, model::EndCause::PREEMPTED});
          } else {
            REQUIRE(entry->phase == model::JobPhase::QUEUED);
            view_.remove_job(d.job);
            records_[d.job].rejected = true;
            --active_;
          }
        }
      },
      decision);
}

void add_two_node_backfill_scenario(Driver& d) {
  d.add(make_job(1, 8, 0, 100));
  d.add(make_job(2, 4, 0, 50));
  d.add(make_job(3, 16, 1, 10));
  d.add(make_job(4, 8, 1, 10));
  d.add(make_job(5, 4, 1, 60));
  d.add(make_job(6, 4, 1, 39));
}

} // namespace acme::test
