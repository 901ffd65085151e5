#pragma once

#include <string>
#include <string_view>

namespace acme::model {

// How outputs write text that came from users (cluster, job and user names, config paths): CSV cells and
// JSON strings stay one cell and one string whatever the text holds.

/// Appends `text` as one CSV cell (RFC 4180): quoted, with quotes doubled, when it holds a comma, a quote,
/// CR or LF; as is otherwise.
void append_csv_field(std::string& out, std::string_view text);
std::string csv_field(std::string_view text);

/// Appends `text` as a JSON string literal with its quotes: `"` and `\` escaped, control characters as
/// \n, \t, \r or \u00XX, and bytes that are not UTF-8 as U+FFFD, so the document stays valid JSON.
void append_json_string(std::string& out, std::string_view text);
std::string json_quote(std::string_view text);

/// Appends `byte` as two lowercase hexadecimal digits (the tail of an \xNN or \u00NN escape).
void append_hex_byte(std::string& out, unsigned char byte);

} // namespace acme::model
