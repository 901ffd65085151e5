#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace acme::tools::calibrate {

/// Median and spread of a measurement's repeats (quartiles by linear interpolation, R type 7).
struct Summary {
  double median = 0.0;
  double min = 0.0;
  double max = 0.0;
  double q1 = 0.0;
  double q3 = 0.0;
  std::size_t repeats = 0;
};

Summary summarise(std::vector<double> samples);

/// One measured quantity: its output key (the unit is part of the name) and every repeat's value.
struct Quantity {
  std::string key;
  std::vector<double> samples;
};

} // namespace acme::tools::calibrate

namespace acme::tools::calibrate {

/// Collects repeats per key, keeping the order in which keys first appear.
class QuantityLog {
public:
  void add(const std::string& key, double value);
  const std::vector<Quantity>& get_quantities() const { return quantities_; }
  /// The samples of `key` (empty when never added).
  std::vector<double> samples(const std::string& key) const;

private:
  std::vector<Quantity> quantities_;
};

} // namespace acme::tools::calibrate
