#include "sim/csv/line_reader.hpp"

#include <cerrno>
#include <cstring>

namespace acme::csv {
namespace {
constexpr std::size_t BUFFER_BYTES = 1 << 20;
constexpr std::string_view BYTE_ORDER_MARK = "\xEF\xBB\xBF";
} // namespace

LineReader::LineReader(std::string path) : path_(std::move(path)), file_(nullptr, &std::fclose) {}

LineReader LineReader::from_file(std::string path) {
  LineReader reader(std::move(path));
  reader.file_.reset(std::fopen(reader.path_.c_str(), "rb"));
  if (!reader.file_) {
    reader.open_error_ = errno != 0 ? errno : ENOENT;
    reader.eof_ = true;
    return reader;
  }
  reader.buffer_.resize(BUFFER_BYTES);
  reader.data_ = reader.buffer_.data();
  return reader;
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
  return end_ > 0;
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
      continue;
    }
    std::size_t len = static_cast<std::size_t>(static_cast<const char*>(nl) - start);
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
