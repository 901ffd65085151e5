#include "tools/calibrate/checkpoint_file.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "tools/calibrate/fill_pattern.hpp"
#include "tools/calibrate/timer.hpp"
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace acme::tools::calibrate {
namespace {

constexpr std::size_t TENSOR_BYTES = 64u << 20u; // largest tensor of the file (a 4096 x 8192 bf16 matrix)
constexpr std::size_t NAME_BYTES = 40;
constexpr std::array<char, 8> MAGIC = {'A', 'C', 'M', 'E', 'C', 'K', 'P', '1'};
constexpr mode_t FILE_MODE = 0644;

struct TensorEntry {
  std::array<char, NAME_BYTES> name{};
  std::uint64_t offset = 0;
  std::uint64_t bytes = 0;
  std::uint64_t checksum = 0;
};

struct Trailer {
  std::array<char, 8> magic = MAGIC;
  std::uint64_t tensor_count = 0;
  std::uint64_t table_offset = 0;
  std::uint64_t data_bytes = 0;
};

/// Closes the descriptor on every path.
class Fd {
public:
  Fd(const std::string& file, int flags) : fd_(::open(file.c_str(), flags, FILE_MODE)) {
    if (fd_ < 0) {
      throw IoError(file + ": cannot open: " + std::strerror(errno));
    }
  }
  ~Fd() { ::close(fd_); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

private:
  int fd_;
};

void write_all(int fd, const void* data, std::size_t bytes, const std::string& file) {
  const auto* in = static_cast<const std::byte*>(data);
  while (bytes > 0) {
    ssize_t n = ::write(fd, in, bytes);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      throw IoError(file + ": write failed: " + std::strerror(errno));
    }
    in += n;
    bytes -= static_cast<std::size_t>(n);
  }
}

void read_all(int fd, void* data, std::size_t bytes, std::uint64_t offset, const std::string& file) {
  auto* out = static_cast<std::byte*>(data);
  while (bytes > 0) {
    ssize_t n = ::pread(fd, out, bytes, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      throw IoError(file + ": read failed at byte " + std::to_string(offset) + ": " +
                    (n == 0 ? std::string("unexpected end of file") : std::strerror(errno)));
    }
    out += n;
    offset += static_cast<std::uint64_t>(n);
    bytes -= static_cast<std::size_t>(n);
  }
}

TensorEntry make_entry(std::size_t index, std::size_t offset, std::size_t bytes) {
  TensorEntry entry;
  std::string name = "state.shard." + std::to_string(index);
  std::copy_n(name.begin(), std::min(name.size(), NAME_BYTES - 1), entry.name.begin());
  entry.offset = offset;
  entry.bytes = bytes;
  return entry;
}

Trailer read_trailer(int fd, std::size_t expected_bytes, const std::string& file) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || static_cast<std::size_t>(st.st_size) < sizeof(Trailer)) {
    throw VerificationError(file + ": too short to be a checkpoint");
  }
  Trailer trailer;
  read_all(fd, &trailer, sizeof(trailer), static_cast<std::uint64_t>(st.st_size) - sizeof(trailer), file);
  std::uint64_t expected_size = trailer.table_offset + trailer.tensor_count * sizeof(TensorEntry) + sizeof(trailer);
  if (trailer.magic != MAGIC || trailer.data_bytes != expected_bytes || trailer.table_offset != expected_bytes ||
      expected_size != static_cast<std::uint64_t>(st.st_size)) {
    throw VerificationError(file + ": trailer does not describe a checkpoint of " + std::to_string(expected_bytes) +
                            " bytes");
  }
  return trailer;
}

} // namespace

WriteTiming write_checkpoint(const std::string& file, const void* snapshot, std::size_t bytes,
                             std::vector<std::byte>& staging) {
  WriteTiming timing;
  staging.resize(std::min(bytes, TENSOR_BYTES));
  std::vector<TensorEntry> table;
  const auto* in = static_cast<const std::byte*>(snapshot);
  Fd fd(file, O_WRONLY | O_CREAT | O_TRUNC);
  for (std::size_t offset = 0; offset < bytes; offset += TENSOR_BYTES) {
    std::size_t chunk = std::min(TENSOR_BYTES, bytes - offset);
    double t0 = now_s();
    std::memcpy(staging.data(), in + offset, chunk);
    TensorEntry entry = make_entry(table.size(), offset, chunk);
    entry.checksum = checksum64(staging.data(), chunk);
    table.push_back(entry);
    double t1 = now_s();
    write_all(fd.get(), staging.data(), chunk, file);
    timing.serialise_s += t1 - t0;
    timing.write_s += now_s() - t1;
  }
  double t2 = now_s();
  Trailer trailer{MAGIC, table.size(), bytes, bytes};
  write_all(fd.get(), table.data(), table.size() * sizeof(TensorEntry), file);
  write_all(fd.get(), &trailer, sizeof(trailer), file);
  if (::fsync(fd.get()) != 0) {
    throw IoError(file + ": fsync failed: " + std::strerror(errno));
  }
  timing.write_s += now_s() - t2;
  return timing;
}

ReadTiming read_checkpoint(const std::string& file, void* dst, std::size_t bytes) {
  ReadTiming timing;
  Fd fd(file, O_RDONLY);
  Trailer trailer = read_trailer(fd.get(), bytes, file);
  std::vector<TensorEntry> table(trailer.tensor_count);
  read_all(fd.get(), table.data(), table.size() * sizeof(TensorEntry), trailer.table_offset, file);
  auto* out = static_cast<std::byte*>(dst);
  std::uint64_t covered = 0;
  double t0 = now_s();
  for (const TensorEntry& entry : table) {
    if (entry.offset != covered || entry.bytes > bytes - covered) {
      throw VerificationError(file + ": tensor table does not tile the data");
    }
    read_all(fd.get(), out + entry.offset, entry.bytes, entry.offset, file);
    covered += entry.bytes;
  }
  double t1 = now_s();
  for (const TensorEntry& entry : table) {
    if (checksum64(out + entry.offset, entry.bytes) != entry.checksum) {
      throw VerificationError(file + ": checksum mismatch in tensor \"" + std::string(entry.name.data()) + "\"");
    }
  }
  timing.read_s = t1 - t0;
  timing.verify_s = now_s() - t1;
  if (covered != bytes) {
    throw VerificationError(file + ": tensors cover " + std::to_string(covered) + " of " + std::to_string(bytes) +
                            " bytes");
  }
  return timing;
}

bool drop_page_cache(const std::string& file) {
  int fd = ::open(file.c_str(), O_RDONLY);
  if (fd < 0) {
    return false;
  }
  bool ok = ::fdatasync(fd) == 0 && ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
  ::close(fd);
  return ok;
}

} // namespace acme::tools::calibrate
