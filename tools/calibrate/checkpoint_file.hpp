#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace acme::tools::calibrate {

/// An I/O failure (open, write, fsync, read): exit code 3.
class IoError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Data read back differs from what was written (a failed check): exit code 1.
class VerificationError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Seconds spent in each step of persisting a snapshot.
struct WriteTiming {
  double serialise_s = 0.0; ///< copying tensors into the write buffer and checksumming them
  double write_s = 0.0;     ///< write() calls plus the final fsync()
};

/// Seconds spent in each step of reading a checkpoint back into host memory.
struct ReadTiming {
  double read_s = 0.0;   ///< pread() of the tensors into the destination buffer
  double verify_s = 0.0; ///< checking every tensor's checksum against the file's table
};

/// Serialises `bytes` of host memory as a checkpoint file: tensors of at most 64 MiB back to back, then a
/// table (name, offset, size, checksum per tensor) and a trailer, then fsync. `staging` is the
/// serialisation buffer (resized as needed).
WriteTiming write_checkpoint(const std::string& file, const void* snapshot, std::size_t bytes,
                             std::vector<std::byte>& staging);

/// Reads a file written by write_checkpoint into `dst` (`bytes` long) and verifies it; throws
/// VerificationError when the size, layout or a checksum does not match.
ReadTiming read_checkpoint(const std::string& file, void* dst, std::size_t bytes);

/// Asks the kernel to drop the file's (clean) pages from the page cache so that the next read comes from
/// the storage device; false when the request failed (then reads may be served from memory).
bool drop_page_cache(const std::string& file);

} // namespace acme::tools::calibrate
