// `acme-sim report RUN_DIR|STUDY_DIR -o report.html`: one self-contained HTML page of a run or a study,
// drawn by tools/report (Python 3 + matplotlib) of the source tree this binary belongs to.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/model/error.hpp"
#include <spawn.h>
#include <sys/wait.h>

extern char** environ; // NOLINT: POSIX, for posix_spawn

namespace acme::cli {
namespace {

namespace fs = std::filesystem;

const char* const REPORT_HELP = R"(usage: acme-sim report RUN_DIR|STUDY_DIR -o report.html [--title TEXT]

Writes one self-contained HTML page (no network needed to open it) about a run folder (acme-sim run -o)
or a study folder (acme-sim sweep -o): which config, seed and version produced it; the summary as
tables; per cluster and job type the queueing-delay, duration and JCT CDFs on the paper's 2^k grids
with the paper's curve of the same cluster and type where data/acme has it; utilisation, queue length
and every other column of timeseries.csv (power when the run records it) over time; failures and GPU
time lost; for a study, every metric across its points with 95% confidence intervals over seeds, one
figure per axis, and each setting's seeds drawn as a median with a band. Figures are matplotlib SVG.

options:
  -o, --output FILE   the page to write (written under a temporary name, then renamed)
  --title TEXT        the page's title (default: the folder's name)
Needs Python 3 with matplotlib (Debian's python3 and python3-matplotlib; tools/install_deps.sh); the
interpreter is $ACME_PYTHON, else /usr/bin/python3, else python3 on the PATH.
Exit codes: 0 ok, 2 bad input (not a run or study folder, no summary.json, no Python).
)";

[[noreturn]] void fail(const std::string& where, const std::string& what) {
  throw ConfigError(Location{where, 0, 0}, "", what);
}

/// tools/report of the tree this binary was built in: searched upwards from the executable (a build
/// folder inside the source tree), then in the source tree compiled in (ACME_SOURCE_DIR).
fs::path find_report_tool() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  for (fs::path dir = exe.parent_path(); !ec && !dir.empty(); dir = dir.parent_path()) {
    fs::path candidate = dir / "tools" / "report";
    if (fs::is_regular_file(candidate, ec)) {
      return candidate;
    }
    if (dir == dir.root_path()) {
      break;
    }
  }
  fs::path compiled_in = fs::path(ACME_SOURCE_DIR) / "tools" / "report";
  if (fs::is_regular_file(compiled_in, ec)) {
    return compiled_in;
  }
  fail("acme-sim report", "cannot find tools/report (not above " + exe.parent_path().string() + " nor in " +
                              compiled_in.parent_path().string() +
                              "); expected the binary of a build of the acme-sim source tree");
}

/// The Python interpreter to run tools/report with: $ACME_PYTHON, /usr/bin/python3 (Debian's, where
/// python3-matplotlib installs), or python3 on the PATH.
std::string find_python() {
  if (const char* env = std::getenv("ACME_PYTHON"); env != nullptr && *env != '\0') {
    return env;
  }
  std::error_code ec;
  if (fs::is_regular_file("/usr/bin/python3", ec)) {
    return "/usr/bin/python3";
  }
  if (const char* path = std::getenv("PATH"); path != nullptr) {
    std::string dirs = path;
    for (std::size_t begin = 0; begin <= dirs.size();) {
      std::size_t end = std::min(dirs.find(':', begin), dirs.size());
      fs::path candidate = fs::path(dirs.substr(begin, end - begin)) / "python3";
      if (end > begin && fs::is_regular_file(candidate, ec)) {
        return candidate.string();
      }
      begin = end + 1;
    }
  }
  fail("acme-sim report",
       "python3 not found ($ACME_PYTHON unset, no /usr/bin/python3, none on the PATH); expected Python 3 with "
       "matplotlib (Debian: python3 python3-matplotlib, see tools/install_deps.sh)");
}

/// Checks the folder before any Python starts, so these errors read alike everywhere.
void check_input(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    fail(dir, "not a folder; expected a run folder (acme-sim run -o) or a study folder (acme-sim sweep -o)");
  }
  if (fs::is_regular_file(fs::path(dir) / "study.json", ec)) {
    return;
  }
  if (!fs::is_regular_file(fs::path(dir) / "summary.json", ec)) {
    fail(dir, fs::exists(fs::path(dir) / "jobs.csv", ec)
                  ? "has no summary.json (an unfinished or interrupted run?); expected a finished run folder"
                  : "neither a run folder (summary.json) nor a study folder (study.json)");
  }
}

/// The page may not replace what it reads: inside the folder read, only a new or earlier page (.html, .htm)
/// may be written; the folder itself and its run's or study's files (summary.json, jobs.csv, ...) are refused.
void check_output(const std::string& dir, const std::string& output) {
  std::error_code ec;
  fs::path in = fs::weakly_canonical(fs::absolute(dir), ec);
  fs::path out = fs::weakly_canonical(fs::absolute(output), ec);
  if (ec) {
    fail("-o " + output, "cannot resolve the path; expected a file path for the HTML page");
  }
  if (!in.has_filename()) {
    in = in.parent_path(); // "RUN/" names the same folder as "RUN"
  }
  if (fs::is_directory(out, ec)) {
    fail("-o " + output, "is a folder; expected a file path for the HTML page");
  }
  auto [end, unused] = std::mismatch(in.begin(), in.end(), out.begin(), out.end());
  bool inside = end == in.end();
  std::string ext = out.extension().string();
  if (inside && ext != ".html" && ext != ".htm") {
    fail("-o " + output, "lies in the folder the report reads (" + dir +
                             ") and is not an .html file; expected a page name such as report.html, which never "
                             "replaces a run's or study's own files");
  }
}

/// Runs `argv` and returns its exit code; a child killed by a signal is an error.
int run_child(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const auto& a : argv) {
    args.push_back(const_cast<char*>(a.c_str())); // NOLINT: posix_spawn's signature
  }
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, args[0], nullptr, nullptr, args.data(), environ);
  if (rc != 0) {
    fail("acme-sim report", "cannot start " + argv[0] + " (" + std::strerror(rc) + "); expected Python 3");
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      fail("acme-sim report", std::string("waiting for tools/report: ") + std::strerror(errno));
    }
  }
  if (WIFSIGNALED(status)) {
    throw std::runtime_error("tools/report was killed by signal " + std::to_string(WTERMSIG(status)));
  }
  return WEXITSTATUS(status);
}

/// An interpreter that is not Python 3 with matplotlib would fail with no message or a traceback.
void check_python(const std::string& python) {
  if (run_child({python, "-c", "import sys, matplotlib; sys.exit(0 if sys.version_info >= (3, 8) else 3)"}) != 0) {
    fail(python, "is not a Python 3.8+ with matplotlib (it failed to import matplotlib); expected such an "
                 "interpreter in $ACME_PYTHON, /usr/bin/python3 or the PATH (Debian: python3 python3-matplotlib)");
  }
}

} // namespace

int cmd_report(std::vector<std::string> argv) {
  if (printed_help(argv, REPORT_HELP)) {
    return 0;
  }
  Args args(std::move(argv), "report");
  auto output = args.value("--output", "-o");
  auto title = args.value("--title");
  auto positionals = args.positionals(1);
  if (positionals.empty() || !output || output->empty()) {
    args.fail("expected acme-sim report RUN_DIR|STUDY_DIR -o report.html");
  }
  check_input(positionals[0]);
  check_output(positionals[0], *output);
  std::string tool = find_report_tool().string();
  std::string python = find_python();
  check_python(python);
  std::vector<std::string> command = {python, tool, positionals[0], "-o", *output};
  if (title) {
    command.insert(command.end(), {"--title", *title});
  }
  return run_child(command);
}

} // namespace acme::cli
