#include "sim/metrics/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <unistd.h>

namespace acme::metrics {

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path))
    , temp_path_(path_ + ".tmp." + std::to_string(::getpid())) {
  file_ = std::fopen(temp_path_.c_str(), "wb");
  if (file_ == nullptr) {
    throw std::runtime_error("cannot create " + temp_path_ + ": " + std::strerror(errno));
  }
}

AtomicFile::~AtomicFile() {
  if (file_ != nullptr) {
    std::fclose(file_);
    std::remove(temp_path_.c_str());
  }
}

void AtomicFile::write(std::string_view text) {
  if (!text.empty() && std::fwrite(text.data(), 1, text.size(), file_) != text.size()) {
    failed_ = true;
  }
}

void AtomicFile::commit() {
  bool ok = !failed_ && std::fflush(file_) == 0 && ::fsync(::fileno(file_)) == 0;
  ok = std::fclose(file_) == 0 && ok;
  file_ = nullptr;
  if (!ok || std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    int err = errno;
    std::remove(temp_path_.c_str());
    throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(err));
  }
}

void write_file_atomically(const std::string& path, std::string_view text) {
  AtomicFile file(path);
  file.write(text);
  file.commit();
}

} // namespace acme::metrics
