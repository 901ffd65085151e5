#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <set>

#include "sim/metrics/atomic_file.hpp"
#include "sim/study/paired.hpp"
#include "sim/study/plan.hpp"
#include "sim/study/results.hpp"
#include "sim/study/study_dir.hpp"
#include "sim/study/t_interval.hpp"
#include "sim/study/text_format.hpp"
#include "tests/unit/study/study_test_util.hpp"
#include "tests/unit/test_paths.hpp"

namespace fs = std::filesystem;
using namespace acme::study;

namespace {

const std::string CONFIG_DIR = acme::test::source_path("configs/test");

Study demo_study() {
  return parse_study_text("name: demo\nconfig: tiny.yaml\ngrid: {a: [1, 2]}\nseeds: 3\n", "demo.yaml", CONFIG_DIR);
}

/// A summary whose numbers depend on the point (a's value and the seed), with a text leaf.
std::string summary_for(const Point& p) {
  double a = std::stod(p.overrides.back().value);
  return "{\"config\": \"x.yaml\", \"clusters\": {\"c\": {\"gpu_utilisation\": " + format_number(0.1 * a) +
         ", \"by_type\": {\"SFT\": {\"queue_s\": {\"mean\": " + format_number(10 * a + static_cast<double>(p.seed)) +
         "}}}}}}";
}

PointRecord record_for(const Point& p, bool fail) {
  PointRecord r;
  r.id = p.id;
  r.status = fail ? STATUS_FAILED : STATUS_OK;
  r.exit_code = fail ? 2 : 0;
  r.error = fail ? "--set a=2: bad value, \"really\"" : "";
  if (!fail) {
    r.metrics = flatten_json_metrics(summary_for(p), "summary.json");
  }
  return r;
}

/// A study folder as a shard sweep leaves it: study.json and points/<id>/ for the shard's points.
void write_shard(const std::string& dir, const Study& s, const std::vector<Point>& all, const std::vector<Point>& mine,
                 const std::string& failing_id) {
  fs::create_directories(dir);
  write_plan(dir, make_plan(s, all, "x/y"));
  for (const auto& p : mine) {
    fs::path pdir = fs::path(dir) / POINTS_DIR / p.id;
    fs::create_directories(pdir);
    auto r = record_for(p, p.id == failing_id);
    acme::metrics::write_file_atomically((pdir / POINT_FILE).string(), point_json_text(p, r, {"acme-sim", "run"}));
    if (r.status == STATUS_OK) {
      acme::metrics::write_file_atomically((pdir / SUMMARY_FILE).string(), summary_for(p));
    }
  }
}

} // namespace

TEST_CASE("study::results: one row per point with overrides and flattened metrics", "[study][results]") {
  auto s = demo_study();
  auto points = expand_points(s);
  ResultsInput input{s.name, axis_keys(s), points, {}, {}, {}, {}};
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    input.records[points[i].id] = record_for(points[i], i == 1);
  }
  std::string csv = results_csv(input);
  REQUIRE_THAT(csv, Catch::StartsWith("point_id,group_id,seed,status,label,set:a,clusters.c.gpu_utilisation,"
                                      "clusters.c.by_type.SFT.queue_s.mean,error\n"));
  REQUIRE_THAT(csv, Catch::Contains(",failed,") && Catch::Contains("\"--set a=2: bad value, \"\"really\"\"\"\n"));
  REQUIRE_THAT(csv, Catch::Contains(points.back().id + "," + points.back().group_id + ",3,missing,"));
  auto counts = count_statuses(input);
  REQUIRE(counts.ok == 4);
  REQUIRE(counts.failed == 1);
  REQUIRE(counts.missing == 1);
  std::string json = results_json(input);
  REQUIRE_THAT(json, Catch::Contains("\"confidence\": 0.95") && Catch::Contains("\"replicas_ok\": 2"));
  auto agg = aggregate_csv(input);
  REQUIRE_THAT(agg, Catch::StartsWith("group_id,set:a,replicas_ok,clusters.c.gpu_utilisation.mean,"
                                      "clusters.c.gpu_utilisation.ci95,"));
  // Each group has two ok replicas. The second group's are seeds 1 and 2: queue mean 10a + {1, 2}, so
  // s = sqrt(0.5) and the half width is t(1) * s / sqrt(2).
  std::string half = format_number(student_t_critical(1, 0.95) * std::sqrt(0.5) / std::sqrt(2.0));
  REQUIRE_THAT(agg, Catch::Contains(",2,") && Catch::Contains(half));
}

TEST_CASE("study::results: the same points give the same bytes in any record order", "[study][results]") {
  auto s = demo_study();
  auto points = expand_points(s);
  ResultsInput forward{s.name, axis_keys(s), points, {}, {}, {}, {}};
  ResultsInput backward = forward;
  for (const auto& p : points) {
    forward.records[p.id] = record_for(p, false);
  }
  for (auto it = points.rbegin(); it != points.rend(); ++it) {
    backward.records[it->id] = record_for(*it, false);
  }
  REQUIRE(results_csv(forward) == results_csv(backward));
  REQUIRE(results_json(forward) == results_json(backward));
}

TEST_CASE("study::merge: shards merge into the results of a single run", "[study][merge]") {
  acme::test::TempDir tmp;
  auto s = demo_study();
  auto points = expand_points(s);
  std::string failing = points[2].id;
  std::vector<std::string> shard_dirs;
  for (std::size_t k = 1; k <= 3; ++k) {
    std::string dir = (tmp / ("shard-" + std::to_string(k))).string();
    write_shard(dir, s, points, select_shard(points, Shard{k, 3}), failing);
    shard_dirs.push_back(dir);
  }
  std::string single = (tmp / "single").string();
  write_shard(single, s, points, points, failing);
  ResultsInput expected{s.name, axis_keys(s), points, read_point_records(single + "/points", points), {}, {}, {}};
  REQUIRE(expected.records.size() == points.size());

  std::vector<std::string> reversed(shard_dirs.rbegin(), shard_dirs.rend());
  for (const auto& inputs : {shard_dirs, reversed}) {
    MergedStudy merged = read_merge_inputs(inputs);
    ResultsInput got{merged.plan.name, merged.plan.axes, merged.plan.points, merged.records, {}, {}, {}};
    REQUIRE(results_csv(got) == results_csv(expected));
    REQUIRE(results_json(got) == results_json(expected));
    REQUIRE(aggregate_csv(got) == aggregate_csv(expected));
  }
  std::string out = (tmp / "merged").string();
  MergedStudy merged = read_merge_inputs(shard_dirs);
  gather_points(merged, out);
  for (const auto& p : points) {
    REQUIRE(fs::is_regular_file(fs::path(out) / POINTS_DIR / p.id / POINT_FILE));
  }
  // Missing shard: its points are reported missing.
  MergedStudy partial = read_merge_inputs({shard_dirs[0], shard_dirs[1]});
  ResultsInput partial_input{partial.plan.name, partial.plan.axes, partial.plan.points, partial.records, {}, {}, {}};
  REQUIRE(count_statuses(partial_input).missing == select_shard(points, Shard{3, 3}).size());
}

TEST_CASE("study::merge: folders of different studies do not merge", "[study][merge]") {
  acme::test::TempDir tmp;
  auto s = demo_study();
  auto other = parse_study_text("config: tiny.yaml\ngrid: {a: [1, 3]}\nseeds: 3\n", "o.yaml", CONFIG_DIR);
  write_shard((tmp / "one").string(), s, expand_points(s), {}, "");
  write_shard((tmp / "two").string(), other, expand_points(other), {}, "");
  REQUIRE_THROWS_WITH(read_merge_inputs({(tmp / "one").string(), (tmp / "two").string()}),
                      Catch::Contains("holds another study"));
  REQUIRE_THROWS_WITH(read_merge_inputs({(tmp / "nothing").string()}), Catch::Contains("study.json: cannot read"));
}

TEST_CASE("study::plan: study.json reads back as written", "[study][plan]") {
  acme::test::TempDir tmp;
  auto s = parse_study_text("config: tiny.yaml\nset: {q: \"a b\"}\nzip: {x: [1, 2], y: ['{k: v}', z]}\nseeds: [3]\n",
                            "p.yaml", CONFIG_DIR);
  Plan plan = make_plan(s, expand_points(s), "2/5");
  write_plan(tmp.str(), plan);
  Plan back = read_plan(tmp.str());
  REQUIRE(same_study(plan, back));
  REQUIRE(back.shard == "2/5");
  REQUIRE(back.base_config == plan.base_config);
  REQUIRE(back.labels.empty());
  REQUIRE(plan_json_text(back).find("labels") == std::string::npos); // written only when the study has labels
  REQUIRE(back.values == plan.values);
  REQUIRE(back.values.size() == 2); // zip x, y in the study's order (points are sorted by id)
  REQUIRE(back.values[1].key_path == "y");
  REQUIRE(back.values[1].names == s.zips[0].axes[1].values);

  auto labelled = parse_study_text(
      "config: tiny.yaml\nzip: {x: [1, 2], y: [a, b]}\nlabels: {y: [small, \"big one\"]}\n", "l.yaml", CONFIG_DIR);
  Plan with_labels = make_plan(labelled, expand_points(labelled), "");
  write_plan(tmp.str(), with_labels);
  Plan labels_back = read_plan(tmp.str());
  REQUIRE(labels_back.labels == with_labels.labels);
  REQUIRE(labels_back.labels.at(0).names == std::vector<std::string>{"small", "big one"});
}

TEST_CASE("study::paired: each setting against the baseline over shared seeds, with a paired t interval",
          "[study][results]") {
  auto s = demo_study();
  auto points = expand_points(s);
  ResultsInput input{s.name, axis_keys(s), points, {}, make_plan(s, points, "").values, {}, {}};
  for (const auto& p : points) {
    input.records[p.id] = record_for(p, false);
  }
  // queue mean = 10 a + seed: a = 2 against a = 1 differs by exactly 10 at every seed (the seed's own
  // part cancels), where the unpaired intervals of seeds 1-3 (half width t(2) x 1 / sqrt(3)) would overlap.
  std::string csv = paired_csv(input);
  REQUIRE_THAT(csv, Catch::StartsWith("group_id,set:a,baseline_group,metric,pairs,baseline_mean,mean,diff_mean,"
                                      "diff_ci95_low,diff_ci95_high,differs\n"));
  REQUIRE_THAT(csv,
               Catch::Contains(",2,") && Catch::Contains("clusters.c.by_type.SFT.queue_s.mean,3,12,22,10,10,10,yes"));
  REQUIRE_THAT(csv, Catch::Contains("clusters.c.gpu_utilisation,3,0.1") && Catch::Contains(",yes\n"));
  input.records.erase(points.back().id); // a = 2 at seed 3 missing: two pairs remain
  REQUIRE_THAT(paired_csv(input), Catch::Contains("queue_s.mean,2,11.5,21.5,10,10,10,yes"));
  input.values.clear(); // no known baseline: no file
  REQUIRE(paired_csv(input).empty());
}

TEST_CASE("study::paired: the study's baseline: names the setting the others are compared to", "[study][results]") {
  auto s = parse_study_text("name: demo\nconfig: tiny.yaml\ngrid: {a: [1, 2]}\nlabels: {a: [one, two]}\n"
                            "seeds: 3\nbaseline: {a: two}\n",
                            "demo.yaml", CONFIG_DIR);
  auto points = expand_points(s);
  Plan plan = make_plan(s, points, "");
  REQUIRE(plan.baseline.size() == 1);
  CHECK(plan.baseline[0].value == "2");
  ResultsInput input{s.name, axis_keys(s), points, {}, plan.values, plan.labels, plan.baseline};
  for (const auto& p : points) {
    input.records[p.id] = record_for(p, false);
  }
  // a = 1 against a = 2: minus 10 at every seed.
  REQUIRE_THAT(paired_csv(input), Catch::Contains("clusters.c.by_type.SFT.queue_s.mean,3,22,12,-10,-10,-10,yes"));
}

TEST_CASE("study::results: results.csv names each point by the study's labels, else by its values",
          "[study][results]") {
  auto s = parse_study_text("name: demo\nconfig: tiny.yaml\ngrid: {a: [1, 2], b: [x, y]}\nlabels: {a: [one, two]}\n",
                            "demo.yaml", CONFIG_DIR);
  auto points = expand_points(s);
  Plan plan = make_plan(s, points, "");
  ResultsInput input{s.name, axis_keys(s), points, {}, plan.values, plan.labels, {}};
  std::set<std::string> labels;
  for (const auto& p : points) {
    labels.insert(point_label(input, p));
  }
  CHECK(labels == std::set<std::string>{"one / x", "one / y", "two / x", "two / y"});
  REQUIRE_THAT(results_csv(input), Catch::StartsWith("point_id,group_id,seed,status,label,set:a,set:b,"));
}
