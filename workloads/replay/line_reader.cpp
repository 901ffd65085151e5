#include "workloads/replay/line_reader.hpp"

#include <cstring>

#include "sim/model/error.hpp"

namespace acme::workloads {
namespace {
constexpr std::size_t BUFFER_BYTES = 1 << 20;
} // namespace

LineReader::LineReader(std::string path)
    : path_(std::move(path))
    , file_(std::fopen(path_.c_str(), "rb"), &std::fclose)
    , buffer_(BUFFER_BYTES) {
  if (!file_) {
    throw ConfigError(Location{path_, 0, 0}, "",
                      std::string("cannot open trace: ") + std::strerror(errno) + "; expected a readable file");
  }
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
      ++line_number_;
      line = carry_;
      return true;
    }
    const char* start = buffer_.data() + begin_;
    const void* nl = std::memchr(start, '\n', end_ - begin_);
    if (nl == nullptr) {
      carry_.append(start, end_ - begin_);
      begin_ = end_;
      continue;
    }
    std::size_t len = static_cast<std::size_t>(static_cast<const char*>(nl) - start);
    begin_ += len + 1;
    ++line_number_;
    if (carry_.empty()) {
      line = std::string_view(start, len);
    } else {
      carry_.append(start, len);
      line = carry_;
    }
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    return true;
  }
}

void LineReader::split(std::string_view line, char delimiter, std::vector<std::string_view>& fields, bool collapse) {
  fields.clear();
  if (!collapse) {
    const char* p = line.data();
    const char* end = p + line.size();
    while (true) {
      const void* hit = std::memchr(p, delimiter, static_cast<std::size_t>(end - p));
      const char* stop = hit == nullptr ? end : static_cast<const char*>(hit);
      fields.emplace_back(p, static_cast<std::size_t>(stop - p));
      if (stop == end) {
        return;
      }
      p = stop + 1;
    }
  }
  std::size_t start = 0;
  while (true) {
    while (start < line.size() && (line[start] == delimiter || line[start] == '\t')) {
      ++start;
    }
    if (start == line.size()) {
      return;
    }
    std::size_t pos = start;
    while (pos < line.size() && line[pos] != delimiter && line[pos] != '\t') {
      ++pos;
    }
    fields.push_back(line.substr(start, pos - start));
    start = pos;
  }
}

} // namespace acme::workloads
