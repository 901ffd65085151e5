#include "sim/metrics/job_columns.hpp"

#include <array>
#include <cmath>
#include <span>

#include "sim/metrics/fault_stats.hpp"
#include "sim/metrics/network_stats.hpp"
#include "sim/metrics/text_append.hpp"
#include "sim/model/units.hpp"

namespace acme::metrics {
namespace {

using C = JobRowContext;

/// A local date-time in the cluster's UTC offset (AcmeTrace's form); empty when unknown.
void datetime(std::string& out, C& c, double t_s) {
  constexpr std::size_t STAMP = 32;
  char stamp[STAMP];
  if (t_s != model::UNKNOWN_TIME_S) {
    out.append(stamp, c.dates.format(c.epoch_unix_s + t_s, c.cluster.utc_offset_s, stamp));
  }
}

/// Whole Unix seconds (UTC): one numeric type for every cluster; empty when unknown.
void unix_seconds(std::string& out, const C& c, double t_s) {
  if (t_s != model::UNKNOWN_TIME_S) {
    append(out, static_cast<std::uint64_t>(std::floor(c.epoch_unix_s + t_s))); // after 1970: checked on input
  }
}

const model::JobSpec& job(const C& c) {
  return *c.record.spec;
}

// AcmeTrace's Kalos schema is a superset of Seren's: one header serves both clusters (pandas reads by
// column name), followed by acme-sim's own columns.
const std::array<JobColumn, 36> COLUMNS = {{
    {"job_id", "the job's name", [](std::string& o, C& c) { model::append_csv_field(o, job(c).name); }},
    {"user", "its user", [](std::string& o, C& c) { model::append_csv_field(o, c.users.name(job(c).user)); }},
    {"node_num", "nodes it ran on", [](std::string& o, C& c) { append(o, std::uint64_t{c.record.nodes}); }},
    {"gpu_num", "GPUs it asked for", [](std::string& o, C& c) { append(o, std::uint64_t{job(c).gpus}); }},
    {"cpu_num", "CPU cores it asked for", [](std::string& o, C& c) { append(o, std::uint64_t{job(c).cpus}); }},
    {"mem_per_pod_GB", "not modelled (empty)", [](std::string&, C&) {}},
    {"shared_mem_per_pod", "not modelled (empty)", [](std::string&, C&) {}},
    {"type", "job type, AcmeTrace's spelling", [](std::string& o, C& c) { model::append_csv_field(o, model::acmetrace_name(job(c).type)); }},
    {"state", "final state", [](std::string& o, C& c) { model::append_csv_field(o, model::to_string(c.record.state)); }},
    {"submit_time", "local date-time", [](std::string& o, C& c) { datetime(o, c, job(c).submit_time_s); }},
    {"start_time", "local date-time of its first start", [](std::string& o, C& c) { datetime(o, c, c.record.first_start_s); }},
    {"end_time", "local date-time", [](std::string& o, C& c) { datetime(o, c, c.record.end_s); }},
    {"fail_time", "not modelled (empty)", [](std::string&, C&) {}},
    {"stop_time", "not modelled (empty)", [](std::string&, C&) {}},
    {"duration", "seconds from its first start to its end", [](std::string& o, C& c) { append(o, c.duration_s); }},
    {"queue", "queueing delay, seconds (0 when it never started; metrics::queueing_delay_s)",
     [](std::string& o, C& c) { append(o, c.started ? queueing_delay_s(c.record) : 0.0); }},
    {"gpu_time", "duration x GPUs, GPU-seconds",
     [](std::string& o, C& c) { append(o, c.duration_s * job(c).gpu_share()); }},
    {"cluster", "its cluster", [](std::string& o, C& c) { model::append_csv_field(o, c.cluster.name); }},
    {"run_id", "its pretraining run (empty: none)",
     [](std::string& o, C& c) {
       if (job(c).run != model::RunId{}) {
         append(o, std::uint64_t{model::to_index(job(c).run)});
       }
     }},
    {"attempts", "attempts it took", [](std::string& o, C& c) { append(o, std::uint64_t{c.record.attempts}); }},
    {"reject_reason", "why it was rejected (none)", [](std::string& o, C& c) { model::append_csv_field(o, model::to_string(c.record.reject)); }},
    {"recorded_queue", "the trace's own queueing delay, seconds (empty: unknown)",
     [](std::string& o, C& c) {
       if (job(c).recorded_start_s != model::UNKNOWN_TIME_S) {
         append(o, job(c).recorded_queue_s());
       }
     }},
    {"leaf_switches", "leaf switches its nodes hang from", [](std::string& o, C& c) { append(o, std::uint64_t{c.record.leaves}); }},
    {"work_s", "seconds of useful computation", [](std::string& o, C& c) { append(o, c.record.work_s); }},
    {"ckpt_stall_s", "seconds stalled by checkpoints", [](std::string& o, C& c) { append(o, c.record.stall_s); }},
    {"restore_s", "seconds restoring checkpoints", [](std::string& o, C& c) { append(o, c.record.restore_s); }},
    {"checkpoints", "checkpoints taken", [](std::string& o, C& c) { append(o, std::uint64_t{c.record.checkpoints}); }},
    {"preemptions", "times preempted", [](std::string& o, C& c) { append(o, std::uint64_t{c.record.preemptions}); }},
    {"failures", "infrastructure failures by category (nvlink:2;cuda:1)",
     [](std::string& o, C& c) { model::append_csv_field(o, c.faults.failures_text(c.record.failures)); }},
    {"lost_work_s", "computation redone after failures or kills, seconds", [](std::string& o, C& c) { append(o, c.record.lost_work_s); }},
    {"gpu_hours_lost", "GPU hours lost to failures", [](std::string& o, C& c) { append(o, c.record.lost_gpu_s / model::SECONDS_PER_HOUR); }},
    {"wait_reason", "the reason it waited longest (empty: it never waited)",
     [](std::string& o, C& c) {
       model::WaitReason longest = longest_wait(c.record.wait_s);
       if (longest != model::WaitReason::NONE || c.record.wait_s[0] > 0.0) {
         append(o, model::to_string(longest));
       }
     }},
    {"energy_kWh", "energy of its GPUs and its share of its nodes", [](std::string& o, C& c) { append(o, c.record.energy.total_J / model::JOULES_PER_KWH); }},
    {"submit_unix_s", "submit_time in whole Unix seconds (UTC)", [](std::string& o, C& c) { unix_seconds(o, c, job(c).submit_time_s); }},
    {"start_unix_s", "start_time in whole Unix seconds (UTC)", [](std::string& o, C& c) { unix_seconds(o, c, c.record.first_start_s); }},
    {"end_unix_s", "end_time in whole Unix seconds (UTC)", [](std::string& o, C& c) { unix_seconds(o, c, c.record.end_s); }},
}};

/// The layout degree (tp, pp or dp) of a job the network model laid out; empty otherwise.
template <std::size_t K>
void degree(std::string& o, C& c) {
  if (c.record.layout[0] > 0) {
    append(o, std::uint64_t{c.record.layout[K]});
  }
}

// Columns of the fluid network model only: runs without it keep the files they always had.
const std::array<JobColumn, 4> NETWORK_COLUMNS = {{
    {"tp", "tensor-parallel degree", degree<0>},
    {"pp", "pipeline-parallel degree", degree<1>},
    {"dp", "data-parallel degree", degree<2>},
    {"comm_slowdown", "run time over its uncontended run time",
     [](std::string& o, C& c) {
       if (c.record.comm_modelled) {
         append(o, NetworkStats::comm_slowdown(c.record));
       }
     }},
}};

} // namespace

std::vector<JobColumn> job_columns(bool network) {
  std::vector<JobColumn> out(COLUMNS.begin(), COLUMNS.end());
  if (network) {
    out.insert(out.end(), NETWORK_COLUMNS.begin(), NETWORK_COLUMNS.end());
  }
  return out;
}

std::string jobs_header(bool network) {
  std::string out;
  for (const JobColumn& column : job_columns(network)) {
    out += (out.empty() ? "" : ",") + std::string(column.name);
  }
  return out;
}

void append_job_row(std::string& out, JobRowContext& c, bool network) {
  for (std::size_t i = 0; i < COLUMNS.size(); ++i) {
    if (i > 0) {
      out += ',';
    }
    COLUMNS[i].write(out, c);
  }
  for (const JobColumn& column : network ? std::span<const JobColumn>(NETWORK_COLUMNS) : std::span<const JobColumn>()) {
    out += ',';
    column.write(out, c);
  }
  out += '\n';
}

} // namespace acme::metrics
