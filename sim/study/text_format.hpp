#pragma once

#include <string>
#include <string_view>

namespace acme::study {

/// Shortest text that reads back as the same double ("12", "0.6384297520661157", "1e-07"): the same
/// value always gives the same bytes, whatever machine or shard produced it.
std::string format_number(double value);

/// A JSON string literal with quotes (escapes ", \ and control characters).
std::string json_quote(std::string_view text);

/// A CSV field (RFC 4180): quoted when it holds a comma, quote, CR or LF.
std::string csv_field(std::string_view text);

/// The last `max_lines` lines of `text` (at most `max_bytes` bytes), trailing blank lines dropped.
std::string tail_lines(std::string_view text, std::size_t max_lines, std::size_t max_bytes);

/// Reads a whole file; returns false when it cannot be read.
bool read_text_file(const std::string& path, std::string& text);

} // namespace acme::study
