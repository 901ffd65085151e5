#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "sim/csv/csv_reader.hpp"
#include "tests/unit/error_of.hpp"

using namespace acme;
using Catch::Contains;
using csv::CsvOptions;
using csv::CsvReader;
using csv::LineReader;
using Fields = std::vector<std::string>;

namespace {
/// Every record of `text` as (line, fields), with the quoting error appended as a last field when there is one.
std::vector<std::pair<std::size_t, Fields>> records(std::string_view text, CsvOptions options = {}) {
  LineReader lines = LineReader::from_text(text, "t.csv");
  csv::CsvRecord record;
  std::vector<std::pair<std::size_t, Fields>> out;
  while (csv::read_record(lines, record, options)) {
    Fields fields(record.fields().begin(), record.fields().end());
    if (!record.error().empty()) {
      fields.push_back("error: " + record.error());
    }
    out.emplace_back(record.line(), fields);
  }
  return out;
}
CsvReader reader_of(std::string_view text, CsvOptions options = {}) {
  return CsvReader(LineReader::from_text(text, "t.csv"), options);
}
} // namespace

TEST_CASE("csv::read_record: plain fields, empty and trailing empty fields kept", "[csv][record]") {
  auto r = records("a,b,c\n,,\nx,\n");
  REQUIRE(r.size() == 3);
  REQUIRE(r[0].second == Fields{"a", "b", "c"});
  REQUIRE(r[1].second == Fields{"", "", ""});
  REQUIRE(r[2].second == Fields{"x", ""});
}

TEST_CASE("csv::read_record: blank and comment lines are skipped, records keep their line", "[csv][record]") {
  auto r = records("# note\n\n  \t\na,b\r\n\r\n#x,y\nc,d", CsvOptions{',', false, '#'});
  REQUIRE(r.size() == 2);
  REQUIRE(r[0] == std::pair<std::size_t, Fields>{4, {"a", "b"}});
  REQUIRE(r[1] == std::pair<std::size_t, Fields>{7, {"c", "d"}});
  REQUIRE(records("#x,y\n")[0].second == Fields{"#x", "y"}); // no comment character by default
}

TEST_CASE("csv::read_record: quoted fields hold delimiters, doubled quotes and line breaks", "[csv][record]") {
  auto r = records("\"a,b\",\"say \"\"hi\"\"\",\"\"\n\"two\r\nlines\",z\nnext,\"\"\"\"\nin\"side,q\n");
  REQUIRE(r.size() == 4);
  REQUIRE(r[0] == std::pair<std::size_t, Fields>{1, {"a,b", "say \"hi\"", ""}});
  REQUIRE(r[1] == std::pair<std::size_t, Fields>{2, {"two\nlines", "z"}});
  REQUIRE(r[2] == std::pair<std::size_t, Fields>{4, {"next", "\""}});
  REQUIRE(r[3].second == Fields{"in\"side", "q"}); // a quote inside an unquoted field is text
}

TEST_CASE("csv::read_record: bad quoting is reported on the record", "[csv][record]") {
  auto open = records("a,\"never closed\nb,c\n");
  REQUIRE(open.size() == 1);
  REQUIRE_THAT(open[0].second.back(), Contains("a quoted field is not closed"));
  auto after = records("\"a\"b,c\nok\n");
  REQUIRE_THAT(after[0].second.back(), Contains("text after the closing quote"));
  REQUIRE(after[1].second == Fields{"ok"});
}

TEST_CASE("csv::read_record: trimming blanks and other delimiters", "[csv][record]") {
  auto r = records(" a ,\t\"b c\" , d\n", CsvOptions{',', true, '\0'});
  REQUIRE(r[0].second == Fields{"a", "b c", "d"});
  REQUIRE(records(" a , b\n")[0].second == Fields{" a ", " b"}); // kept by default
  REQUIRE(records("a;\"b;c\"\n", CsvOptions{';', false, '\0'})[0].second == Fields{"a", "b;c"});
}

TEST_CASE("csv::split_line: one line split as records are", "[csv][record]") {
  REQUIRE(csv::split_line("time,\"a,b\",\r") == Fields{"time", "a,b", ""});
  REQUIRE(csv::split_line("") == Fields{""});
  REQUIRE(csv::split_line("x,y,") == Fields{"x", "y", ""});
}

TEST_CASE("csv::parse_number: the whole text or nothing", "[csv][number]") {
  REQUIRE(csv::parse_number<double>("8.5") == 8.5);
  REQUIRE_FALSE(csv::parse_number<double>("8.5x"));
  REQUIRE_FALSE(csv::parse_number<double>(""));
  REQUIRE(csv::parse_number<std::uint32_t>("42") == 42u);
  REQUIRE_FALSE(csv::parse_number<std::uint32_t>("-1"));
}

TEST_CASE("csv::csv_reader: columns by name, records checked against the header", "[csv][reader]") {
  CsvReader reader = reader_of("\xEF\xBB\xBF# c\nname,gpus\r\nx,8\n\ny,\"1\"\n", CsvOptions{',', false, '#'});
  REQUIRE(reader.has_header());
  REQUIRE(reader.header().line() == 2);
  REQUIRE(reader.header().names() == Fields{"name", "gpus"});
  std::size_t gpus = reader.require("gpus", "expected gpus");
  REQUIRE(gpus == 1);
  REQUIRE_FALSE(reader.find("model"));
  REQUIRE(reader.next());
  REQUIRE(reader.field(gpus) == "8");
  REQUIRE(reader.line() == 3);
  REQUIRE(reader.next());
  REQUIRE(reader.field(gpus) == "1");
  REQUIRE(reader.line() == 5);
  REQUIRE_FALSE(reader.next());
  REQUIRE(reader.lines_read() == 5);
}

TEST_CASE("csv::csv_reader: errors name file:line and the column", "[csv][reader][errors]") {
  REQUIRE_THAT(test::error_of([] { reader_of("a,b\n1,2\n").require("c", "expected a, b and c"); }),
               Contains("t.csv:1: missing column \"c\"; expected a, b and c"));
  REQUIRE_THAT(test::error_of([] {
                 CsvReader r = reader_of("a,b\n1,2\n1,2,3\n");
                 r.next();
                 r.next();
               }),
               Contains("t.csv:3: expected 2 fields as in the header, got 3"));
  REQUIRE_THAT(test::error_of([] {
                 CsvReader r = reader_of("a,b\n1,2\n");
                 r.next();
                 r.fail_column(1, "expected a date, got \"2\"");
               }),
               Contains("t.csv:2: column \"b\": expected a date, got \"2\""));
  REQUIRE_THAT(test::error_of([] {
                 CsvReader r = reader_of("a,b\n\"1,2\n");
                 r.next();
               }),
               Contains("t.csv:2: a quoted field is not closed"));
  CsvReader unchecked = reader_of("a,b\n1\n");
  REQUIRE(unchecked.next_unchecked());
  REQUIRE(unchecked.problem() == "expected 2 fields as in the header, got 1");
  REQUIRE_FALSE(reader_of("\n# only\n", CsvOptions{',', false, '#'}).has_header());
}
