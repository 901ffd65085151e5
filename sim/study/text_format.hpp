#pragma once

#include <string>
#include <string_view>

#include "sim/model/text_escape.hpp"

namespace acme::study {

/// Shortest text that reads back as the same double ("12", "0.6384297520661157", "1e-07"): the same
/// value always gives the same bytes, whatever machine or shard produced it.
std::string format_number(double value);

// JSON string literals and CSV fields of studies are written as every output writes them.
using model::csv_field;
using model::json_quote;

/// The last `max_lines` lines of `text` (at most `max_bytes` bytes), trailing blank lines dropped.
std::string tail_lines(std::string_view text, std::size_t max_lines, std::size_t max_bytes);

/// Reads a whole regular file; returns false when it cannot be read (missing, a folder, unreadable).
bool read_text_file(const std::string& path, std::string& text);

} // namespace acme::study
