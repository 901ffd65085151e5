#pragma once

#include <map>
#include <string>
#include <string_view>

namespace acme::validate {

/// One reference number of a check, as validate/<subject>/reference.yaml gives it, with its source.
struct ReferenceValue {
  double value = 0.0;     ///< the reference a simulated value is compared with
  double tolerance = 0.0; ///< accepted relative error of a comparison with `value`
  double low = 0.0;       ///< a range check: the accepted interval [low, high]
  double high = 0.0;
  std::string source; ///< where the number comes from (paper section, data file, closed form)
};

/// The reference numbers of one subject: a YAML map of name -> {value, tolerance, low, high, source}
/// (absent fields are 0). Every entry must name its source.
class ReferenceTable {
public:
  /// Parses `text` (an embedded file, `name` for messages); a malformed file is a programmer error.
  ReferenceTable(std::string_view text, std::string name);
  /// The entry `key`; a programmer error when absent.
  const ReferenceValue& at(const std::string& key) const;

private:
  std::string name_;
  std::map<std::string, ReferenceValue> values_;
};

} // namespace acme::validate
