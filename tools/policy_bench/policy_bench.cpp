// acme-policy-bench: throughput of the scheduling policies on a synthetic Acme-like stream of jobs over a
// hand-built ClusterView of Seren's shape (286 nodes x 8 GPUs, 20 nodes per leaf; configs/acme.yaml). A
// tiny event loop plays the engine (submissions, ends after the job's duration, preemptions); the
// figures are jobs completed per second of wall time, for the loop and for the scheduler alone.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <queue>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "policies/builtin.hpp"
#include "sim/config/config.hpp"
#include "sim/model/cluster_view.hpp"
#include "sim/model/error.hpp"
#include "tools/policy_bench/bench_workload.hpp"

namespace {

using namespace acme;

constexpr std::uint32_t SEREN_NODES = 286;
constexpr std::uint32_t GPUS_PER_NODE = 8;
constexpr std::uint32_t NODES_PER_LEAF = 20;
constexpr std::size_t DEFAULT_JOBS = 1000000;
constexpr double DEFAULT_LOAD = 0.95;
constexpr std::uint64_t DEFAULT_SEED = 1;

const std::vector<std::string> DEFAULT_SCHEDULERS = {
    "fifo",
    "easy_backfill",
    "{name: easy_backfill, estimator: oracle}",
    "conservative_backfill",
    "sjf",
    "priority",
    "{name: quota, quotas: {pretrain: 1600}}",
    "las",
    "{name: kube_quota, quotas: {pretrain: 1600, eval: 256}}",
};

struct Options {
  std::size_t jobs = DEFAULT_JOBS;
  double load = DEFAULT_LOAD;
  std::uint64_t seed = DEFAULT_SEED;
  std::vector<std::string> schedulers;
  std::string placement = "pack";
};

struct EndEvent {
  double time_s = 0.0;
  std::uint64_t job = 0;
  std::uint32_t generation = 0;
  bool operator>(const EndEvent& o) const { return time_s > o.time_s || (time_s == o.time_s && job > o.job); }
};

struct Result {
  double wall_s = 0.0;
  double scheduler_s = 0.0;
  std::size_t finished = 0;
  std::size_t rejected = 0;
  std::size_t preemptions = 0;
  std::size_t calls = 0;
  std::size_t instants = 0;
  std::size_t max_queued = 0;
  double queued_sum = 0.0;
  double wait_sum_s = 0.0;
};

model::ClusterShape seren_shape() {
  model::ClusterShape s;
  s.name = "seren";
  s.nodes = SEREN_NODES;
  s.gpus_per_node = GPUS_PER_NODE;
  s.cpu_pool_cores = 1;
  for (std::uint32_t n = 0; n < SEREN_NODES; ++n) {
    s.leaf_of_node.push_back(n / NODES_PER_LEAF);
  }
  s.leaves = (SEREN_NODES + NODES_PER_LEAF - 1) / NODES_PER_LEAF;
  return s;
}

config::PolicySpec spec_of(const char* family, const std::string& yaml, const char* fallback) {
  config::Node root = config::load_yaml_text(std::string(family) + ": " + yaml, "command line");
  return config::parse_policy(root[family], family, fallback);
}

/// The event loop: one scheduler call per batch of events at an instant, decisions applied in order.
class Bench {
public:
  Bench(const std::vector<model::JobSpec>& jobs, std::unique_ptr<policies::Scheduler> scheduler)
      : jobs_(jobs)
      , view_(seren_shape())
      , scheduler_(std::move(scheduler))
      , remaining_s_(jobs.size())
      , generation_(jobs.size(), 0)
      , first_start_s_(jobs.size(), -1.0) {
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      remaining_s_[i] = jobs[i].duration_s;
    }
  }

  Result run() {
    auto begin = std::chrono::steady_clock::now();
    std::size_t next = 0;
    while (next < jobs_.size() || !ends_.empty() || (!wakeups_.empty() && view_.queued_jobs() > 0)) {
      double t = next < jobs_.size() ? jobs_[next].submit_time_s : ends_.top().time_s;
      if (!ends_.empty()) {
        t = std::min(t, ends_.top().time_s);
      }
      if (!wakeups_.empty()) {
        t = std::min(t, *wakeups_.begin());
      }
      view_.set_now(t);
      take_ends(t);
      while (!wakeups_.empty() && *wakeups_.begin() <= t) {
        events_.emplace_back(model::WakeUp{*wakeups_.begin()});
        wakeups_.erase(wakeups_.begin());
      }
      while (next < jobs_.size() && jobs_[next].submit_time_s <= t) {
        view_.add_job(jobs_[next]);
        events_.emplace_back(model::JobSubmitted{jobs_[next].id});
        ++next;
      }
      call_scheduler(t);
      ++result_.instants;
      result_.queued_sum += static_cast<double>(view_.queued_jobs());
      result_.max_queued = std::max(result_.max_queued, view_.queued_jobs());
    }
    result_.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    return result_;
  }

private:
  void take_ends(double t) {
    while (!ends_.empty() && ends_.top().time_s <= t) {
      EndEvent e = ends_.top();
      ends_.pop();
      if (e.generation != generation_[e.job]) {
        continue; // an attempt that was preempted
      }
      model::JobId id{e.job};
      view_.stop_job(id);
      view_.remove_job(id);
      ++result_.finished;
      events_.emplace_back(model::JobEnded{id, model::JobState::COMPLETED, model::EndCause::WORKLOAD});
    }
  }

  void call_scheduler(double t) {
    while (!events_.empty()) {
      auto begin = std::chrono::steady_clock::now();
      std::vector<model::Decision> decisions = scheduler_->on_events(events_, view_);
      result_.scheduler_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
      ++result_.calls;
      events_.clear();
      for (const auto& d : decisions) {
        apply(d, t);
      }
    }
  }

  void apply(const model::Decision& decision, double t) {
    if (const auto* later = std::get_if<model::CallMeLater>(&decision)) {
      wakeups_.insert(std::max(later->time_s, t));
      return;
    }
    std::visit(
        [&](const auto& d) {
          using D = std::decay_t<decltype(d)>;
          if constexpr (std::is_same_v<D, model::CallMeLater> || std::is_same_v<D, model::NoteWait>) {
            return; // wait reasons are the engine's accounting
          } else {
            std::uint64_t i = model::to_index(d.job);
            if constexpr (std::is_same_v<D, model::StartJob>) {
              view_.start_job(d.job, d.placement);
              if (first_start_s_[i] < 0.0) {
                first_start_s_[i] = t;
                result_.wait_sum_s += t - jobs_[i].submit_time_s;
              }
              ends_.push({t + remaining_s_[i], i, generation_[i]});
            } else if constexpr (std::is_same_v<D, model::PreemptJob>) {
              remaining_s_[i] -= t - view_.job(d.job).start_time_s;
              ++generation_[i];
              ++result_.preemptions;
              view_.stop_job(d.job);
              events_.emplace_back(model::JobEnded{d.job, model::JobState::CANCELLED, model::EndCause::PREEMPTED});
            } else {
              view_.remove_job(d.job);
              ++result_.rejected;
            }
          }
        },
        decision);
  }

  const std::vector<model::JobSpec>& jobs_;
  model::ClusterView view_;
  std::unique_ptr<policies::Scheduler> scheduler_;
  std::vector<double> remaining_s_;
  std::vector<std::uint32_t> generation_;
  std::vector<double> first_start_s_;
  std::priority_queue<EndEvent, std::vector<EndEvent>, std::greater<>> ends_;
  std::vector<model::Event> events_;
  std::set<double> wakeups_; ///< times asked for with CallMeLater
  Result result_;
};

void usage() {
  std::printf("usage: acme-policy-bench [--jobs N] [--load L] [--seed S] [--placement NAME] [--scheduler YAML]...\n\n"
              "Replays a synthetic Acme-like stream of N jobs (default %zu, offered load %.2f of Seren's GPUs)\n"
              "through each scheduler (default: every builtin one) and prints jobs per second.\n",
              DEFAULT_JOBS, DEFAULT_LOAD);
}

Options parse_args(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "acme-policy-bench: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--jobs") {
      o.jobs = std::stoull(value());
    } else if (a == "--load") {
      o.load = std::stod(value());
    } else if (a == "--seed") {
      o.seed = std::stoull(value());
    } else if (a == "--placement") {
      o.placement = value();
    } else if (a == "--scheduler") {
      o.schedulers.push_back(value());
    } else if (a == "--help" || a == "-h") {
      usage();
      std::exit(0);
    } else {
      std::fprintf(stderr,
                   "acme-policy-bench: unknown option \"%s\"; expected --jobs, --load, --seed, "
                   "--placement or --scheduler\n",
                   a.c_str());
      std::exit(2);
    }
  }
  if (o.schedulers.empty()) {
    o.schedulers = DEFAULT_SCHEDULERS;
  }
  return o;
}

} // namespace

int main(int argc, char** argv) {
  Options options = parse_args(argc, argv);
  try {
    auto jobs = tools::make_bench_workload(options.seed, options.jobs, SEREN_NODES * GPUS_PER_NODE, options.load);
    auto registries = policies::make_builtin_registries();
    policies::PolicyContext context{options.seed, "seren", ""};
    std::printf("%zu jobs over %.1f simulated days, offered load %.2f, placement %s\n", jobs.size(),
                jobs.back().submit_time_s / 86400.0, options.load, options.placement.c_str());
    std::printf("%-58s %10s %12s %12s %9s %9s %10s %11s\n", "scheduler", "wall s", "jobs/s", "sched jobs/s",
                "queue avg", "queue max", "preempted", "mean wait s");
    for (const auto& yaml : options.schedulers) {
      auto scheduler = registries.schedulers.create(spec_of("scheduler", yaml, "fifo"), context);
      scheduler->set_placement(registries.placements.create(spec_of("placement", options.placement, "pack"), context));
      Result r = Bench(jobs, std::move(scheduler)).run();
      double n = static_cast<double>(r.finished + r.rejected);
      std::printf("%-58s %10.2f %12.0f %12.0f %9.0f %9zu %10zu %11.0f\n", yaml.c_str(), r.wall_s, n / r.wall_s,
                  n / r.scheduler_s, r.queued_sum / static_cast<double>(r.instants), r.max_queued, r.preemptions,
                  r.wait_sum_s / n);
      std::fflush(stdout);
    }
  } catch (const ConfigError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  return 0;
}
