#include "sim/model/text_escape.hpp"

#include <cstdint>

namespace acme::model {
namespace {

constexpr unsigned char FIRST_PRINTABLE = 0x20;
constexpr const char* REPLACEMENT_CHARACTER = "\\ufffd";

bool needs_csv_quotes(std::string_view text) {
  return text.find_first_of(",\"\r\n") != std::string_view::npos;
}

/// Length of the well-formed UTF-8 sequence starting at text[i] (RFC 3629: no overlongs, no
/// surrogates, at most U+10FFFF); 0 when the bytes there are not one.
std::size_t utf8_sequence(std::string_view text, std::size_t i) {
  constexpr unsigned char ASCII_END = 0x80;
  constexpr unsigned char TWO = 0xc2;
  constexpr unsigned char THREE = 0xe0;
  constexpr unsigned char FOUR = 0xf0;
  constexpr unsigned char END = 0xf5;
  constexpr unsigned char CONT_LO = 0x80;
  constexpr unsigned char CONT_HI = 0xbf;
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char lead = byte(i);
  if (lead < ASCII_END) {
    return 1;
  }
  std::size_t length = lead < TWO ? 0 : lead < THREE ? 2 : lead < FOUR ? 3 : lead < END ? 4 : 0;
  if (length == 0 || i + length > text.size()) {
    return 0;
  }
  // The second byte's range depends on the lead (overlongs, surrogates, beyond U+10FFFF).
  unsigned char lo = CONT_LO;
  unsigned char hi = CONT_HI;
  constexpr unsigned char E0_LO = 0xa0;
  constexpr unsigned char ED_HI = 0x9f;
  constexpr unsigned char F0_LO = 0x90;
  constexpr unsigned char F4_HI = 0x8f;
  constexpr unsigned char SURROGATE_LEAD = 0xed;
  constexpr unsigned char LAST_LEAD = 0xf4;
  if (lead == THREE) {
    lo = E0_LO;
  } else if (lead == SURROGATE_LEAD) {
    hi = ED_HI;
  } else if (lead == FOUR) {
    lo = F0_LO;
  } else if (lead == LAST_LEAD) {
    hi = F4_HI;
  }
  if (byte(i + 1) < lo || byte(i + 1) > hi) {
    return 0;
  }
  for (std::size_t k = 2; k < length; ++k) {
    if (byte(i + k) < CONT_LO || byte(i + k) > CONT_HI) {
      return 0;
    }
  }
  return length;
}

} // namespace

void append_hex_byte(std::string& out, unsigned char byte) {
  constexpr const char* HEX = "0123456789abcdef";
  constexpr unsigned NIBBLE = 4;
  constexpr unsigned LOW = 0xf;
  out += HEX[byte >> NIBBLE];
  out += HEX[byte & LOW];
}

void append_csv_field(std::string& out, std::string_view text) {
  if (!needs_csv_quotes(text)) {
    out.append(text);
    return;
  }
  out += '"';
  for (char c : text) {
    if (c == '"') {
      out += '"';
    }
    out += c;
  }
  out += '"';
}

std::string csv_field(std::string_view text) {
  std::string out;
  append_csv_field(out, text);
  return out;
}

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  for (std::size_t i = 0; i < text.size();) {
    auto c = static_cast<unsigned char>(text[i]);
    std::size_t length = utf8_sequence(text, i);
    if (length == 0) {
      out += REPLACEMENT_CHARACTER;
      ++i;
      continue;
    }
    if (length > 1) {
      out.append(text.substr(i, length));
      i += length;
      continue;
    }
    ++i;
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    default:
      if (c < FIRST_PRINTABLE) {
        out += "\\u00";
        append_hex_byte(out, c);
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  out += '"';
}

std::string json_quote(std::string_view text) {
  std::string out;
  append_json_string(out, text);
  return out;
}

} // namespace acme::model
