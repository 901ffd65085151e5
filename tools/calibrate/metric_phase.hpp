#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace acme::tools::calibrate {

/// Generated model outputs and their references, as token ids.
struct MetricCorpus {
  std::vector<std::vector<std::uint32_t>> references;
  std::vector<std::vector<std::uint32_t>> candidates;
  std::size_t candidate_tokens = 0;
};

/// What scoring found (reported as a sanity check of the workload, not as a calibration value).
struct MetricScores {
  double exact_match_rate = 0.0;
  double mean_bleu = 0.0;
};

/// `samples` reference sequences of `tokens` tokens and candidates derived from them: a fifth are exact
/// copies, the rest have tokens substituted or dropped, as a model's generations differ from references.
MetricCorpus generate_corpus(std::uint32_t samples, std::uint32_t tokens, std::uint64_t seed);

/// The CPU metric phase of an evaluation trial: exact match plus sentence BLEU-4 (clipped n-gram
/// precision, brevity penalty, epsilon smoothing of zero counts) for every candidate, single-threaded.
MetricScores score_corpus(const MetricCorpus& corpus);

} // namespace acme::tools::calibrate
