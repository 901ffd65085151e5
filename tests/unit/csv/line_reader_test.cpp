#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "sim/csv/line_reader.hpp"

using acme::csv::LineReader;

namespace {
std::vector<std::string> all_lines(LineReader lines) {
  std::vector<std::string> out;
  std::string_view line;
  while (lines.next(line)) {
    out.emplace_back(line);
  }
  return out;
}
} // namespace

TEST_CASE("csv::line_reader: lines without their end of line, CRLF or LF, last line unterminated", "[csv][lines]") {
  auto lines = all_lines(LineReader::from_text("a,b\r\n\nc\r\nlast\r", "t.csv"));
  REQUIRE(lines == std::vector<std::string>{"a,b", "", "c", "last"});
  REQUIRE(all_lines(LineReader::from_text("", "t.csv")).empty());
  REQUIRE(all_lines(LineReader::from_text("\n", "t.csv")) == std::vector<std::string>{""});
}

TEST_CASE("csv::line_reader: a byte-order mark before the first line is dropped", "[csv][lines]") {
  auto lines = all_lines(LineReader::from_text("\xEF\xBB\xBFname\n\xEF\xBB\xBFx\n", "t.csv"));
  REQUIRE(lines == std::vector<std::string>{"name", "\xEF\xBB\xBFx"}); // only before the first line
}

TEST_CASE("csv::line_reader: line numbers count every line, blank ones too", "[csv][lines]") {
  LineReader lines = LineReader::from_text("a\n\nb\n", "t.csv");
  std::string_view line;
  REQUIRE(lines.line_number() == 0);
  REQUIRE(lines.next(line));
  REQUIRE(lines.next(line));
  REQUIRE(lines.next(line));
  REQUIRE(line == "b");
  REQUIRE(lines.line_number() == 3);
  REQUIRE_FALSE(lines.next(line));
  REQUIRE(lines.path() == "t.csv");
}

TEST_CASE("csv::line_reader: files, long lines across the buffer, and files that cannot be opened", "[csv][lines]") {
  std::string path = std::string(P_tmpdir) + "/acme-test-csv-lines.txt";
  std::string longline(3 << 20, 'x'); // longer than the 1 MiB buffer
  std::ofstream(path) << "first\r\n" << longline << "\nend";
  auto lines = all_lines(LineReader::from_file(path));
  REQUIRE(lines.size() == 3);
  REQUIRE(lines[0] == "first");
  REQUIRE(lines[1] == longline);
  REQUIRE(lines[2] == "end");
  std::remove(path.c_str());
  LineReader missing = LineReader::from_file("/nonexistent/acme.csv");
  REQUIRE_FALSE(missing.is_open());
  REQUIRE(missing.open_error() != 0);
  std::string_view line;
  REQUIRE_FALSE(missing.next(line));
}
