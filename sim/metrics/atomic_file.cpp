#include "sim/metrics/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <string>

#include "sim/model/error.hpp"
#include <unistd.h>

namespace acme::metrics {

namespace {

[[noreturn]] void cannot_write(const std::string& path, int error) {
  throw ConfigError(Location{path, 0, 0}, "",
                    std::string("cannot write: ") + std::strerror(error) +
                        "; expected a writable output folder with free space");
}

} // namespace

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path))
    , temp_path_(path_ + ".tmp." + std::to_string(::getpid())) {
  file_ = std::fopen(temp_path_.c_str(), "wb");
  if (file_ == nullptr) {
    cannot_write(path_, errno);
  }
}

AtomicFile::~AtomicFile() {
  if (file_ != nullptr) {
    std::fclose(file_);
    std::remove(temp_path_.c_str());
  }
}

void AtomicFile::write(std::string_view text) {
  if (error_ == 0 && !text.empty() && std::fwrite(text.data(), 1, text.size(), file_) != text.size()) {
    error_ = errno != 0 ? errno : EIO;
  }
}

void AtomicFile::commit() {
  if (error_ == 0 && (std::fflush(file_) != 0 || ::fsync(::fileno(file_)) != 0)) {
    error_ = errno;
  }
  if (std::fclose(file_) != 0 && error_ == 0) {
    error_ = errno;
  }
  file_ = nullptr;
  if (error_ == 0 && std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    error_ = errno;
  }
  if (error_ != 0) {
    std::remove(temp_path_.c_str());
    cannot_write(path_, error_);
  }
}

void write_file_atomically(const std::string& path, std::string_view text) {
  AtomicFile file(path);
  file.write(text);
  file.commit();
}

} // namespace acme::metrics
