#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/metrics/output_set.hpp"
#include "tests/unit/error_of.hpp"
#include <sys/wait.h>
#include <unistd.h>

using namespace acme;
using metrics::OutputSet;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> NAMES = {"jobs.csv", "summary.json"};

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("acme-output-set-" + std::to_string(::getpid()));
  TempDir() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

std::string read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void write(const fs::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

/// A pid no process has any more: a child's, after it ended.
pid_t dead_pid() {
  pid_t child = ::fork();
  if (child == 0) {
    ::_exit(0);
  }
  ::waitpid(child, nullptr, 0);
  return child;
}

std::vector<std::string> entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) {
    names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

} // namespace

TEST_CASE("metrics::output_set: a run's files appear together, stale ones of its names go", "[metrics][output]") {
  TempDir tmp;
  write(tmp.path / "jobs.csv", "earlier run\n");
  write(tmp.path / "summary.json", "earlier run\n");
  write(tmp.path / "notes.txt", "the user's own file\n");
  {
    OutputSet out(tmp.path.string(), NAMES);
    out.write("summary.json", "{}\n");
    REQUIRE(read(tmp.path / "summary.json") == "earlier run\n"); // nothing visible before the commit
    out.commit();
  }
  REQUIRE(read(tmp.path / "summary.json") == "{}\n");
  REQUIRE_FALSE(fs::exists(tmp.path / "jobs.csv")); // not written by this run: an earlier run's, removed
  REQUIRE(entries(tmp.path) == std::vector<std::string>{"notes.txt", "summary.json"});
}

TEST_CASE("metrics::output_set: a run that does not commit leaves the folder as it was", "[metrics][output]") {
  TempDir tmp;
  write(tmp.path / "summary.json", "earlier run\n");
  {
    OutputSet out(tmp.path.string(), NAMES);
    out.write("jobs.csv", "half a run\n");
    out.write("summary.json", "{}\n");
  }
  REQUIRE(entries(tmp.path) == std::vector<std::string>{"summary.json"});
  REQUIRE(read(tmp.path / "summary.json") == "earlier run\n");
}

TEST_CASE("metrics::output_set: what killed runs left is finished or removed by the next run", "[metrics][output]") {
  TempDir tmp;
  write(tmp.path / "jobs.csv", "earlier run\n");
  SECTION("a run killed after its commit mark: its files are installed") {
    fs::path staging = tmp.path / (".acme-staging." + std::to_string(dead_pid()));
    fs::create_directories(staging);
    write(staging / "summary.json", "killed run\n");
    write(staging / "COMMIT", "remove jobs.csv\ninstall summary.json\n");
    OutputSet next(tmp.path.string(), NAMES);
    REQUIRE(read(tmp.path / "summary.json") == "killed run\n");
    REQUIRE_FALSE(fs::exists(tmp.path / "jobs.csv"));
  }
  SECTION("a run killed before its commit mark: its staging folder is removed, nothing installed") {
    fs::path staging = tmp.path / (".acme-staging." + std::to_string(dead_pid()));
    fs::create_directories(staging);
    write(staging / "jobs.csv.tmp.1", std::string(1000, 'x'));
    OutputSet next(tmp.path.string(), NAMES);
    REQUIRE(read(tmp.path / "jobs.csv") == "earlier run\n");
    REQUIRE_FALSE(fs::exists(staging));
  }
}

TEST_CASE("metrics::output_set: an output folder that cannot be one is bad input", "[metrics][output]") {
  TempDir tmp;
  write(tmp.path / "file", "x");
  std::string error = test::error_of([&] { OutputSet out((tmp.path / "file").string(), NAMES); });
  REQUIRE_THAT(error, Catch::Contains("file: cannot create this folder"));
  error = test::error_of([&] { OutputSet out((tmp.path / "file" / "below").string(), NAMES); });
  REQUIRE_THAT(error, Catch::Contains("below: cannot create this folder (Not a directory)"));
}
