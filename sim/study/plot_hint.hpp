#pragma once

#include <string>

namespace acme::study {

/// The command line that draws plots of a study or run folder: tools/plot of the source tree this
/// binary was built from (plain `tools/plot` when that tree is gone), PNG and PDF into DIR/plots.
std::string plot_command(const std::string& dir);

} // namespace acme::study
