#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/csv/csv_reader.hpp"
#include "sim/metrics/event_trace.hpp"
#include "sim/metrics/recorder.hpp"
#include "sim/model/text_escape.hpp"
#include <unistd.h>

using namespace acme;
using namespace acme::metrics;

namespace {

namespace fs = std::filesystem;

/// A fresh folder, removed at the end of the test.
class TraceDir {
public:
  TraceDir() {
    static std::atomic<int> counter{0};
    path_ = fs::temp_directory_path() /
            ("acme-event-trace-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TraceDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TraceDir(const TraceDir&) = delete;
  TraceDir& operator=(const TraceDir&) = delete;

  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::size_t entries() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(path_), fs::directory_iterator()));
  }

private:
  fs::path path_;
};

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

model::JobSpec job(std::string name, std::uint16_t cluster) {
  model::JobSpec spec;
  spec.name = std::move(name);
  spec.cluster = model::ClusterId{cluster};
  return spec;
}

/// One job's life on cluster 1 and a node failure on cluster 0.
void write_story(EventTrace& trace) {
  model::JobSpec j = job("kalos-4711", 1);
  model::Placement placement{{model::NodeId{3}, 8, 0, 0}, {model::NodeId{12}, 8, 0, 0}};
  std::vector<model::NodeId> at_fault{model::NodeId{12}};
  trace.submit(10.0, j);
  trace.start(12.25, j, placement);
  trace.checkpoint(3612.25, j, "async");
  trace.fail(4000.5, j, "nvlink_error", at_fault);
  trace.node_down(4000.5, model::ClusterId{0}, model::NodeId{7}, "switch");
  trace.restore(4100.0, j);
  trace.preempt(5000.0, j);
  trace.node_up(7600.0, model::ClusterId{0}, model::NodeId{7}, "repaired");
  trace.end(9000.0, j, model::JobState::COMPLETED);
}

constexpr const char* STORY_CSV = "time_s,cluster,job,event,nodes,detail\n"
                                  "10.000000,kalos,kalos-4711,submit,,\n"
                                  "12.250000,kalos,kalos-4711,start,3 12,\n"
                                  "3612.250000,kalos,kalos-4711,checkpoint,,async\n"
                                  "4000.500000,kalos,kalos-4711,fail,12,nvlink_error\n"
                                  "4000.500000,seren,,node_down,7,switch\n"
                                  "4100.000000,kalos,kalos-4711,restore,,\n"
                                  "5000.000000,kalos,kalos-4711,preempt,,\n"
                                  "7600.000000,seren,,node_up,7,repaired\n"
                                  "9000.000000,kalos,kalos-4711,end,,COMPLETED\n";

} // namespace

TEST_CASE("metrics::event_trace: one row per event with its columns", "[metrics][event_trace]") {
  TraceDir dir;
  EventTrace trace(dir.file("events.csv"), {"seren", "kalos"});
  write_story(trace);
  CHECK(trace.rows() == 9);
  trace.commit();
  std::string text = read_all(dir.file("events.csv"));
  CHECK(text == STORY_CSV);
  CHECK(trace.bytes() == text.size());
}

TEST_CASE("metrics::event_trace: a rejected job ends with its reason", "[metrics][event_trace]") {
  TraceDir dir;
  EventTrace trace(dir.file("events.csv"), {"seren"});
  trace.end(1.0, job("big", 0), model::JobState::CANCELLED, model::RejectReason::TOO_MANY_GPUS);
  trace.commit();
  CHECK(read_all(dir.file("events.csv")) ==
        "time_s,cluster,job,event,nodes,detail\n1.000000,seren,big,end,,more GPUs than the cluster has\n");
}

TEST_CASE("metrics::event_trace: CSV quoting of names and details", "[metrics][event_trace]") {
  TraceDir dir;
  EventTrace trace(dir.file("events.csv"), {"east,1", "say \"hi\""});
  trace.submit(0.0, job("a,b", 0));
  trace.fail(1.0, job("plain", 1), "line\nbreak, and \"quotes\"");
  trace.node_down(2.0, model::ClusterId{0}, model::NodeId{0}, "cr\rlf");
  trace.commit();
  CHECK(read_all(dir.file("events.csv")) ==
        "time_s,cluster,job,event,nodes,detail\n"
        "0.000000,\"east,1\",\"a,b\",submit,,\n"
        "1.000000,\"say \"\"hi\"\"\",plain,fail,,\"line\nbreak, and \"\"quotes\"\"\"\n"
        "2.000000,\"east,1\",,node_down,0,\"cr\rlf\"\n");
  std::string cell;
  model::append_csv_field(cell, "");
  CHECK(cell.empty());
}

TEST_CASE("metrics::event_trace: quoted cells read back with the project's CSV reader", "[metrics][event_trace]") {
  std::vector<std::string> cells{"a,b", "say \"hi\"", "plain", "", "\"leading quote", "trailing,"};
  std::string line;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) {
      line += ',';
    }
    model::append_csv_field(line, cells[i]);
  }
  CHECK(csv::split_line(line) == cells);
}

TEST_CASE("metrics::event_trace: times have six fixed decimals", "[metrics][event_trace]") {
  TraceDir dir;
  EventTrace trace(dir.file("events.csv"), {"c"});
  model::JobSpec j = job("j", 0);
  trace.submit(0.1 + 0.2, j);       // 0.30000000000000004
  trace.submit(1e-7, j);            // rounds to zero
  trace.submit(2592000.0000016, j); // a month in: the sub-microsecond part is rounded
  trace.submit(123456789.125, j);
  trace.commit();
  CHECK(read_all(dir.file("events.csv")) == "time_s,cluster,job,event,nodes,detail\n"
                                            "0.300000,c,j,submit,,\n"
                                            "0.000000,c,j,submit,,\n"
                                            "2592000.000002,c,j,submit,,\n"
                                            "123456789.125000,c,j,submit,,\n");
}

TEST_CASE("metrics::event_trace: the same events give the same bytes", "[metrics][event_trace]") {
  TraceDir dir;
  for (const char* name : {"a.csv", "b.csv"}) {
    EventTrace trace(dir.file(name), {"seren", "kalos"});
    constexpr int ROWS = 60000; // several flushes of the 1 MiB buffer
    for (int i = 0; i < ROWS; ++i) {
      write_story(trace);
    }
    trace.commit();
  }
  std::string a = read_all(dir.file("a.csv"));
  CHECK(a.size() > (std::size_t{4} << 20));
  CHECK(a == read_all(dir.file("b.csv")));
}

TEST_CASE("metrics::event_trace: nothing appears before commit or after an abort", "[metrics][event_trace]") {
  TraceDir dir;
  SECTION("commit renames into place") {
    EventTrace trace(dir.file("events.csv"), {"seren", "kalos"});
    write_story(trace);
    CHECK_FALSE(fs::exists(dir.file("events.csv")));
    trace.commit();
    CHECK(fs::exists(dir.file("events.csv")));
    CHECK(dir.entries() == 1); // no temporary left behind
  }
  SECTION("a trace destroyed without commit leaves nothing, and an earlier file intact") {
    { std::ofstream(dir.file("events.csv")) << "earlier run\n"; }
    {
      EventTrace trace(dir.file("events.csv"), {"seren", "kalos"});
      write_story(trace);
    }
    CHECK(read_all(dir.file("events.csv")) == "earlier run\n");
    CHECK(dir.entries() == 1);
  }
}

TEST_CASE("metrics::event_trace: the recorder owns it only when asked", "[metrics][event_trace]") {
  TraceDir dir;
  model::NameTable users;
  RecorderOptions options;
  options.out_dir = dir.file("out");
  options.clusters = {ClusterInfo{"seren", 0.0, 1, 8, 0.0}};
  options.write_jobs_csv = false;
  SECTION("off by default: no trace, no file") {
    Recorder recorder(options, users);
    CHECK(recorder.events() == nullptr);
    recorder.finish(RunInfo{});
    CHECK_FALSE(fs::exists(dir.file("out/events.csv")));
  }
  SECTION("on: the trace is committed with the other files") {
    options.write_events = true;
    Recorder recorder(options, users);
    REQUIRE(recorder.events() != nullptr);
    recorder.events()->submit(5.0, job("j1", 0));
    CHECK_FALSE(fs::exists(dir.file("out/events.csv")));
    recorder.finish(RunInfo{});
    CHECK(read_all(dir.file("out/events.csv")) ==
          "time_s,cluster,job,event,nodes,detail\n5.000000,seren,j1,submit,,\n");
  }
}
