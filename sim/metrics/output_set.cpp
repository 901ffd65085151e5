#include "sim/metrics/output_set.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/metrics/atomic_file.hpp"
#include "sim/model/error.hpp"
#include <fcntl.h>
#include <unistd.h>

namespace acme::metrics {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view STAGING_PREFIX = ".acme-staging.";
constexpr const char* COMMIT_MARK = "COMMIT";
constexpr std::string_view INSTALL = "install ";
constexpr std::string_view REMOVE = "remove ";

// What the signal handler removes: plain arrays filled before `cleanup_count` makes them visible, so the
// handler never reads a half-written path (it may only call async-signal-safe functions: unlink, rmdir).
constexpr std::size_t MAX_CLEANUP_PATHS = 32;
constexpr std::size_t MAX_PATH_CHARS = 4096;
char cleanup_paths[MAX_CLEANUP_PATHS][MAX_PATH_CHARS]; // NOLINT: read by the signal handler
char cleanup_dir[MAX_PATH_CHARS];                      // NOLINT: read by the signal handler
volatile std::sig_atomic_t cleanup_count = 0;          // NOLINT: 0 while (re)filling
volatile std::sig_atomic_t cleanup_committed = 0;      // NOLINT: after the mark: leave the folder

void remove_registered_staging() {
  if (cleanup_committed == 0 && cleanup_count > 0) {
    for (std::sig_atomic_t i = 0; i < cleanup_count; ++i) {
      ::unlink(cleanup_paths[i]);
    }
    ::rmdir(cleanup_dir);
  }
}

extern "C" void remove_staging_and_reraise(int signal_number) {
  remove_registered_staging();
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

bool copy_path(char* out, const std::string& path) {
  if (path.size() + 1 > MAX_PATH_CHARS) {
    return false;
  }
  std::memcpy(out, path.c_str(), path.size() + 1);
  return true;
}

/// Lets the signal handler remove `staging` and the files `names` may have there (final and temporary).
void register_cleanup(const std::string& staging, const std::vector<std::string>& names) {
  cleanup_count = 0;
  cleanup_committed = 0;
  if (!copy_path(cleanup_dir, staging)) {
    return;
  }
  std::vector<std::string> paths;
  std::string pid_suffix = ".tmp." + std::to_string(::getpid());
  for (const auto& name : names) {
    paths.push_back(staging + "/" + name);
    paths.push_back(staging + "/" + name + pid_suffix);
  }
  std::sig_atomic_t count = 0;
  for (const auto& path : paths) {
    if (static_cast<std::size_t>(count) < MAX_CLEANUP_PATHS && copy_path(cleanup_paths[count], path)) {
      ++count;
    }
  }
  cleanup_count = count;
}

/// The pid a staging folder's name carries; 0 when the name is not one.
pid_t staging_owner(const std::string& name) {
  if (!name.starts_with(STAGING_PREFIX)) {
    return 0;
  }
  pid_t pid = 0;
  const char* begin = name.data() + STAGING_PREFIX.size();
  auto [end, ec] = std::from_chars(begin, name.data() + name.size(), pid);
  return ec == std::errc() && end == name.data() + name.size() ? pid : 0;
}

bool process_alive(pid_t pid) {
  return ::kill(pid, 0) == 0 || errno == EPERM;
}

void sync_folder(const fs::path& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

/// Carries out a commit mark: each staged file renamed over its final name, stale names removed.
void install(const fs::path& staging, const fs::path& dir) {
  std::ifstream mark(staging / COMMIT_MARK);
  std::error_code ec;
  for (std::string line; std::getline(mark, line);) {
    if (line.starts_with(INSTALL)) {
      std::string name = line.substr(INSTALL.size());
      fs::rename(staging / name, dir / name, ec);
    } else if (line.starts_with(REMOVE)) {
      fs::remove(dir / line.substr(REMOVE.size()), ec);
    }
  }
  sync_folder(dir);
  fs::remove_all(staging, ec);
}

/// What earlier runs left in `dir`: a committed staging folder is installed, any other of a run that no
/// longer exists is removed (it never became the folder's outputs).
void recover(const fs::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    pid_t owner = staging_owner(it->path().filename().string());
    if (owner == 0 || (owner != ::getpid() && process_alive(owner))) {
      continue;
    }
    std::error_code exists_ec;
    if (fs::exists(it->path() / COMMIT_MARK, exists_ec)) {
      install(it->path(), dir);
    } else {
      fs::remove_all(it->path(), exists_ec);
    }
  }
}

} // namespace

OutputSet::OutputSet(std::string dir, std::vector<std::string> names) : dir_(std::move(dir)), names_(std::move(names)) {
  std::error_code ec;
  if (fs::exists(dir_, ec) && !fs::is_directory(dir_, ec)) {
    fail("cannot create this folder (a file has its name)");
  }
  fs::create_directories(dir_, ec);
  if (ec || !fs::is_directory(dir_, ec)) {
    fail("cannot create this folder (" + (ec ? ec.message() : std::string("unknown reason")) + ")");
  }
  recover(dir_);
  staging_ = (fs::path(dir_) / (std::string(STAGING_PREFIX) + std::to_string(::getpid()))).string();
  fs::remove_all(staging_, ec);
  if (!fs::create_directory(staging_, ec) || ec) {
    fail("cannot write to this folder (" + (ec ? ec.message() : std::string("exists")) + ")");
  }
  register_cleanup(staging_, names_);
}

OutputSet::~OutputSet() {
  cleanup_count = 0;
  if (!committed_) {
    std::error_code ec;
    fs::remove_all(staging_, ec);
  }
}

void OutputSet::fail(const std::string& what) const {
  throw ConfigError(Location{dir_, 0, 0}, "", what + "; expected a writable output folder with free space");
}

std::string OutputSet::staged_path(const std::string& name) const {
  return staging_ + "/" + name;
}

void OutputSet::write(const std::string& name, std::string_view text) {
  write_file_atomically(staged_path(name), text);
}

void OutputSet::commit() {
  std::string mark;
  for (const auto& name : names_) {
    std::error_code ec;
    bool staged = fs::exists(staged_path(name), ec);
    mark += std::string(staged ? INSTALL : REMOVE) + name + "\n";
  }
  write(COMMIT_MARK, mark);
  sync_folder(staging_);
  // From here on the run is committed: a stop during the renames is completed by the next run.
  cleanup_committed = 1;
  committed_ = true;
  install(staging_, dir_);
}

void OutputSet::rethrow_at_final_names(const ConfigError& error) const {
  std::string what = error.what();
  const std::string staged = staging_ + "/";
  const std::string final_dir = dir_ + (dir_.ends_with('/') ? "" : "/");
  for (auto at = what.find(staged); at != std::string::npos; at = what.find(staged, at + final_dir.size())) {
    what.replace(at, staged.size(), final_dir);
  }
  throw ConfigError(Location{}, "", what);
}

void OutputSet::remove_staging_now() {
  remove_registered_staging();
}

void OutputSet::remove_staging_on_signal() {
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
    std::signal(signal_number, remove_staging_and_reraise);
  }
}

} // namespace acme::metrics
