#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

#include "sim/metrics/atomic_file.hpp"
#include "sim/study/point_runner.hpp"
#include "sim/study/sweep_runner.hpp"
#include "tests/unit/study/study_test_util.hpp"
#include "tests/unit/test_paths.hpp"

namespace fs = std::filesystem;
using namespace acme::study;

namespace {

/// A stand-in for `acme-sim run CONFIG -o DIR --quiet --seed N --set k=v...`: writes a summary, or
/// fails like a bad override when a value is "bad", or crashes when it is "crash".
const char* const FAKE_WORKER = R"(out="$3"; seed="$6"
case "$*" in
  *=bad*) echo "--set a=bad: unknown value; expected a number" >&2; exit 2;;
  *=crash*) kill -SEGV $$;;
esac
printf '{"seed": %s, "clusters": {"c": {"gpu_utilisation": 0.5}}}\n' "$seed" > "$out/summary.json"
)";

} // namespace

TEST_CASE("study::runner: points run in parallel child processes; failures are recorded", "[study][runner]") {
  acme::test::TempDir tmp;
  std::string script = (tmp / "worker.sh").string();
  acme::metrics::write_file_atomically(script, FAKE_WORKER);
  auto s = parse_study_text("config: tiny.yaml\ngrid: {a: [1, 2, bad, crash]}\nseeds: 2\n", "s.yaml",
                            acme::test::source_path("configs/test"));
  auto points = expand_points(s);
  std::string points_dir = (tmp / "points").string();
  fs::create_directories(points_dir);
  std::set<std::string> reported;
  PoolOptions pool{
      3, {"/bin/sh", {script}}, s.base_config, points_dir, [&reported](const Point& p, const PointRecord&) {
        reported.insert(p.id);
      }};
  run_points(points, pool);
  REQUIRE(reported.size() == points.size());
  auto records = read_point_records(points_dir, points);
  REQUIRE(records.size() == points.size());
  std::size_t ok = 0;
  for (const auto& p : points) {
    const auto& r = records.at(p.id);
    std::string a = p.overrides.back().value;
    if (a == "bad") {
      REQUIRE(r.status == STATUS_FAILED);
      REQUIRE(r.exit_code == 2);
      // the worker named the --set it was given; the record names the study's line
      REQUIRE_THAT(r.error, Catch::StartsWith("exit code 2: s.yaml:2:18: unknown value"));
    } else if (a == "crash") {
      REQUIRE(r.status == STATUS_FAILED);
      REQUIRE_THAT(r.error, Catch::Contains("killed by signal 11"));
    } else {
      REQUIRE(r.status == STATUS_OK);
      REQUIRE(r.metrics.size() == 2);
      REQUIRE(r.metrics[0].value == static_cast<double>(p.seed));
      ++ok;
    }
  }
  REQUIRE(ok == 4);
  for (const auto& entry : fs::directory_iterator(points_dir)) {
    REQUIRE(entry.path().filename().string().front() != '.'); // no temporary folder left
  }
  // A second attempt replaces a failed point's folder.
  const Point& bad =
      *std::find_if(points.begin(), points.end(), [](const Point& p) { return p.overrides.back().value == "bad"; });
  Point fixed = bad;
  fixed.overrides.back().value = "3";
  REQUIRE(run_point(pool.worker, s.base_config, fixed, points_dir).status == STATUS_OK);
  REQUIRE(fs::is_regular_file(fs::path(points_dir) / bad.id / "summary.json"));
  REQUIRE_FALSE(read_point_record(points_dir, bad).has_value()); // point.json now describes the other overrides
}

TEST_CASE("study::runner: a worker that cannot start is a failed point", "[study][runner]") {
  acme::test::TempDir tmp;
  Point p{"0000000000000000-s1", "0000000000000000", {}, 1};
  auto r = run_point(WorkerCommand{"/nonexistent/acme-sim", {"run"}}, "c.yaml", p, tmp.str());
  REQUIRE(r.status == STATUS_FAILED);
  REQUIRE_THAT(r.error, Catch::Contains("/nonexistent/acme-sim"));
  REQUIRE(available_cpus() >= 1);
}
