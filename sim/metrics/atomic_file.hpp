#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace acme::metrics {

/// A file written under a temporary name in the same folder and renamed over `path` on commit(), so
/// readers never see a half-written result and a failed run leaves earlier results intact.
class AtomicFile {
public:
  /// Throws ConfigError (PATH: cannot write: REASON) when the temporary file cannot be created.
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(std::string_view text);
  /// Flushes, syncs and renames into place. Throws ConfigError (PATH: cannot write: REASON) when a write
  /// failed (a full disk) or the file cannot be synced or renamed; the temporary file is removed then.
  void commit();
  const std::string& path() const { return path_; }

private:
  std::string path_;
  std::string temp_path_;
  std::FILE* file_ = nullptr;
  int error_ = 0; ///< errno of the first failed write
};

/// Writes `text` to `path` atomically.
void write_file_atomically(const std::string& path, std::string_view text);

} // namespace acme::metrics
