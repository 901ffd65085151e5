#include "sim/csv/line_reader.hpp"

#include <cerrno>
#include <cstring>
#include <string>

#include "sim/model/error.hpp"
#include <sys/stat.h>

namespace acme::csv {
namespace {
constexpr std::size_t BUFFER_BYTES = 1 << 20;
constexpr std::string_view BYTE_ORDER_MARK = "\xEF\xBB\xBF";

/// errno of a path that fopen opened but that is not a file of lines (a folder, a device or a pipe, which
/// may never end); 0 when it is a regular file.
int unreadable_kind(std::FILE* file) {
  struct stat info {};
  if (::fstat(::fileno(file), &info) != 0) {
    return errno;
  }
  if (S_ISDIR(info.st_mode)) {
    return EISDIR;
  }
  return S_ISREG(info.st_mode) ? 0 : ENOTSUP;
}
} // namespace

LineReader::LineReader(std::string path) : path_(std::move(path)), file_(nullptr, &std::fclose) {}

LineReader LineReader::from_file(std::string path) {
  LineReader reader(std::move(path));
  reader.file_.reset(std::fopen(reader.path_.c_str(), "rb"));
  if (reader.file_) {
    reader.open_error_ = unreadable_kind(reader.file_.get());
  } else {
    reader.open_error_ = errno != 0 ? errno : ENOENT;
  }
  if (reader.open_error_ != 0) {
    reader.file_.reset();
    reader.eof_ = true;
    return reader;
  }
  reader.buffer_.resize(BUFFER_BYTES);
  reader.data_ = reader.buffer_.data();
  return reader;
}

std::string LineReader::open_problem() const {
  switch (open_error_) {
  case 0:
    return "";
  case EISDIR:
    return "it is a folder";
  case ENOTSUP:
    return "not a regular file";
  default:
    return std::strerror(open_error_);
  }
}

LineReader LineReader::from_text(std::string_view text, std::string name) {
  LineReader reader(std::move(name));
  reader.data_ = text.data();
  reader.end_ = text.size();
  reader.eof_ = true;
  return reader;
}

bool LineReader::refill() {
  if (eof_) {
    return false;
  }
  end_ = std::fread(buffer_.data(), 1, buffer_.size(), file_.get());
  begin_ = 0;
  eof_ = end_ < buffer_.size();
  if (eof_ && std::ferror(file_.get()) != 0) {
    throw ConfigError(Location{path_, static_cast<int>(line_number_ + 1), 0}, "",
                      std::string("cannot read the file: ") + std::strerror(errno) + "; expected a readable file");
  }
  return end_ > 0;
}

void LineReader::check_length(std::size_t bytes) const {
  if (bytes > MAX_LINE_BYTES) {
    throw ConfigError(Location{path_, static_cast<int>(line_number_ + 1), 0}, "",
                      "a line longer than 16 MiB; expected a text file of lines");
  }
}

bool LineReader::next(std::string_view& line) {
  carry_.clear();
  while (true) {
    if (begin_ == end_ && !refill()) {
      if (carry_.empty()) {
        return false;
      }
      line = carry_;
      break;
    }
    const char* start = data_ + begin_;
    const void* nl = std::memchr(start, '\n', end_ - begin_);
    if (nl == nullptr) {
      carry_.append(start, end_ - begin_);
      begin_ = end_;
      check_length(carry_.size());
      continue;
    }
    std::size_t len = static_cast<std::size_t>(static_cast<const char*>(nl) - start);
    check_length(carry_.size() + len);
    begin_ += len + 1;
    if (carry_.empty()) {
      line = std::string_view(start, len);
    } else {
      carry_.append(start, len);
      line = carry_;
    }
    break;
  }
  if (++line_number_ == 1 && line.starts_with(BYTE_ORDER_MARK)) {
    line.remove_prefix(BYTE_ORDER_MARK.size());
  }
  if (!line.empty() && line.back() == '\r') {
    line.remove_suffix(1);
  }
  return true;
}

} // namespace acme::csv
