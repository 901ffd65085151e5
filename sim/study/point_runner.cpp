#include "sim/study/point_runner.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>

#include "sim/metrics/atomic_file.hpp"
#include "sim/study/metrics_flatten.hpp"
#include "sim/study/text_format.hpp"
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ; // NOLINT: POSIX, for posix_spawn

namespace acme::study {
namespace {

namespace fs = std::filesystem;

constexpr const char* TEMP_PREFIX = ".tmp-";
constexpr const char* OLD_PREFIX = ".old-";
constexpr const char* STDERR_FILE = "stderr.log";
constexpr std::size_t ERROR_TAIL_LINES = 8; // enough for a located error or a crash backtrace head
constexpr std::size_t ERROR_TAIL_BYTES = 2000;

struct ChildResult {
  bool started = false;
  int exit_code = 0;
  int signal = 0;
  std::string spawn_error;
};

ChildResult spawn_and_wait(const std::vector<std::string>& argv, const std::string& stderr_path) {
  ChildResult result;
  std::vector<char*> cargv;
  for (const auto& a : argv) {
    cargv.push_back(const_cast<char*>(a.c_str())); // NOLINT: posix_spawn's historical signature
  }
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  constexpr mode_t LOG_MODE = 0644;
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   LOG_MODE);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, cargv[0], &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    result.spawn_error = "cannot start " + argv[0] + ": " + std::strerror(rc);
    return result;
  }
  result.started = true;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      result.spawn_error = std::string("waitpid: ") + std::strerror(errno);
      return result;
    }
  }
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
  }
  return result;
}

std::string describe_failure(const ChildResult& child, const std::string& stderr_tail) {
  std::string what;
  if (!child.spawn_error.empty()) {
    what = child.spawn_error;
  } else if (child.signal != 0) {
    what = "killed by signal " + std::to_string(child.signal) + " (" + strsignal(child.signal) + ")";
  } else {
    what = "exit code " + std::to_string(child.exit_code);
  }
  return stderr_tail.empty() ? what : what + ": " + stderr_tail;
}

PointRecord outcome(const ChildResult& child, const fs::path& temp_dir) {
  PointRecord record;
  std::string stderr_text;
  read_text_file((temp_dir / STDERR_FILE).string(), stderr_text);
  std::string tail = tail_lines(stderr_text, ERROR_TAIL_LINES, ERROR_TAIL_BYTES);
  record.exit_code = child.signal != 0 ? -child.signal : child.exit_code;
  bool exited_ok = child.started && child.spawn_error.empty() && child.signal == 0 && child.exit_code == 0;
  if (!exited_ok) {
    record.status = STATUS_FAILED;
    record.error = describe_failure(child, tail);
    return record;
  }
  try {
    record.metrics = load_summary_metrics((temp_dir / SUMMARY_FILE).string());
    record.status = STATUS_OK;
  } catch (const ConfigError& e) {
    record.status = STATUS_FAILED;
    record.error = std::string("the worker exited 0 but its summary is unusable: ") + e.what();
  }
  if (stderr_text.empty()) {
    fs::remove(temp_dir / STDERR_FILE);
  }
  return record;
}

/// A worker names an override it was given as "--set key=value"; the point's overrides came from the study
/// file: its error names the study's line instead.
std::string relocate_error(std::string error, const Point& point) {
  for (const auto& o : point.overrides) {
    if (o.where.file.empty()) {
      continue;
    }
    std::string given = config::override_location(config::Override{o.key_path, o.value}).file + ": ";
    std::string study = format_located(o.where, "", "");
    for (auto at = error.find(given); at != std::string::npos; at = error.find(given, at + study.size())) {
      error.replace(at, given.size(), study);
    }
  }
  return error;
}

/// Renames the finished temporary folder over points_dir/<id> (an earlier failed attempt is moved
/// aside first: rename(2) cannot replace a non-empty folder).
void publish(const fs::path& temp_dir, const fs::path& final_dir, const fs::path& old_dir) {
  std::error_code ec;
  if (fs::exists(final_dir, ec)) {
    fs::remove_all(old_dir, ec);
    fs::rename(final_dir, old_dir);
  }
  fs::rename(temp_dir, final_dir);
  fs::remove_all(old_dir, ec);
}

} // namespace

std::vector<std::string> worker_argv(const WorkerCommand& worker, const std::string& base_config, const Point& point,
                                     const std::string& out_dir) {
  std::vector<std::string> argv{worker.executable};
  argv.insert(argv.end(), worker.args.begin(), worker.args.end());
  argv.insert(argv.end(), {base_config, "-o", out_dir, "--quiet", "--seed", std::to_string(point.seed)});
  for (const auto& o : point.overrides) {
    argv.push_back("--set");
    argv.push_back(o.key_path + "=" + o.value);
  }
  return argv;
}

PointRecord run_point(const WorkerCommand& worker, const std::string& base_config, const Point& point,
                      const std::string& points_dir) {
  fs::path temp_dir = fs::path(points_dir) / (TEMP_PREFIX + point.id);
  fs::remove_all(temp_dir);
  fs::create_directories(temp_dir);
  std::vector<std::string> argv = worker_argv(worker, base_config, point, temp_dir.string());
  auto start = std::chrono::steady_clock::now();
  ChildResult child = spawn_and_wait(argv, (temp_dir / STDERR_FILE).string());
  PointRecord record = outcome(child, temp_dir);
  record.error = relocate_error(std::move(record.error), point);
  record.id = point.id;
  record.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // point.json names the folder the point ends up in, not the temporary one it ran in.
  argv = worker_argv(worker, base_config, point, (fs::path(points_dir) / point.id).string());
  metrics::write_file_atomically((temp_dir / POINT_FILE).string(), point_json_text(point, record, argv));
  publish(temp_dir, fs::path(points_dir) / point.id, fs::path(points_dir) / (OLD_PREFIX + point.id));
  return record;
}

void remove_stale_temporaries(const std::string& points_dir) {
  std::error_code ec;
  if (!fs::is_directory(points_dir, ec)) {
    return;
  }
  for (const auto& entry : fs::directory_iterator(points_dir)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(TEMP_PREFIX, 0) == 0 || name.rfind(OLD_PREFIX, 0) == 0) {
      fs::remove_all(entry.path(), ec);
    }
  }
}

} // namespace acme::study
