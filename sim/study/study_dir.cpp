#include "sim/study/study_dir.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "sim/model/error.hpp"
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace acme::study {
namespace {

namespace fs = std::filesystem;

constexpr const char* LOCK_FILE = ".sweep.lock";
constexpr const char* MERGE_TEMP_PREFIX = ".tmp-merge-";

[[noreturn]] void bad_dir(const std::string& dir, const std::string& what) {
  throw ConfigError(Location{dir, 0, 0}, "", what);
}

bool better(const PointRecord& candidate, const PointRecord& current) {
  return candidate.status == STATUS_OK && current.status != STATUS_OK;
}

/// Copies a point folder file by file, hard-linking where the file system allows it.
void copy_point_dir(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  for (const auto& entry : fs::directory_iterator(from)) {
    fs::path target = to / entry.path().filename();
    std::error_code ec;
    fs::create_hard_link(entry.path(), target, ec);
    if (ec) {
      fs::copy(entry.path(), target, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
    }
  }
}

} // namespace

StudyLock::StudyLock(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  std::string path = (fs::path(dir) / LOCK_FILE).string();
  constexpr mode_t LOCK_MODE = 0644;
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, LOCK_MODE);
  if (fd_ < 0) {
    bad_dir(dir, std::string("cannot write to this folder (") + std::strerror(errno) +
                     "); expected a writable output folder");
  }
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_);
    fd_ = -1;
    bad_dir(dir, "another acme-sim sweep or merge is using this folder; expected it to finish first");
  }
}

StudyLock::~StudyLock() {
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

MergedStudy read_merge_inputs(const std::vector<std::string>& input_dirs) {
  MergedStudy merged;
  std::string first_dir;
  for (const auto& dir : input_dirs) {
    Plan plan = read_plan(dir);
    if (first_dir.empty()) {
      merged.plan = plan;
      merged.plan.shard.clear();
      first_dir = dir;
    } else if (!same_study(plan, merged.plan)) {
      bad_dir(dir,
              "holds another study than " + first_dir + " (different points or axes); expected shards of one study");
    }
    std::string points_dir = (fs::path(dir) / POINTS_DIR).string();
    for (auto& [id, record] : read_point_records(points_dir, plan.points, &merged.damaged)) {
      auto it = merged.records.find(id);
      if (it == merged.records.end() || better(record, it->second)) {
        merged.source_dir[id] = (fs::path(points_dir) / id).string();
        merged.records[id] = std::move(record);
      }
    }
  }
  return merged;
}

void gather_points(const MergedStudy& merged, const std::string& out_dir) {
  fs::path points_dir = fs::path(out_dir) / POINTS_DIR;
  fs::create_directories(points_dir);
  for (const auto& [id, source] : merged.source_dir) {
    fs::path target = points_dir / id;
    std::error_code ec;
    if (fs::exists(target, ec) && fs::equivalent(source, target, ec)) {
      continue; // the output folder is one of the inputs
    }
    fs::path temp = points_dir / (MERGE_TEMP_PREFIX + id);
    fs::remove_all(temp);
    copy_point_dir(source, temp);
    fs::remove_all(target);
    fs::rename(temp, target);
  }
}

} // namespace acme::study
