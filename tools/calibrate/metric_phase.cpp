#include "tools/calibrate/metric_phase.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "sim/model/rng.hpp"

namespace acme::tools::calibrate {
namespace {

constexpr std::uint32_t VOCAB = 32000;          // LLaMA's tokenizer (Touvron et al. 2023)
constexpr unsigned TOKEN_BITS = 16;             // VOCAB < 2^16: four tokens pack exactly into a 64-bit key
constexpr int MAX_ORDER = 4;                    // BLEU-4 (Papineni et al. 2002)
constexpr double EXACT_COPY_SHARE = 0.2;        // assumption: a fifth of generations match exactly
constexpr double SUBSTITUTE_PROBABILITY = 0.15; // assumption: per-token edit rates of the other candidates
constexpr double DROP_PROBABILITY = 0.05;
constexpr double ZERO_COUNT_EPSILON = 0.1; // Chen & Cherry 2014, smoothing method 1

using NgramCounts = std::unordered_map<std::uint64_t, int>;

std::uint64_t ngram_key(const std::vector<std::uint32_t>& seq, std::size_t start, int order) {
  std::uint64_t key = 0; // the counts are per order, so the order need not be part of the key
  for (int i = 0; i < order; ++i) {
    key = (key << TOKEN_BITS) | seq[start + static_cast<std::size_t>(i)];
  }
  return key;
}

std::vector<std::uint32_t> mutate(const std::vector<std::uint32_t>& ref, model::Rng& rng) {
  std::vector<std::uint32_t> out;
  out.reserve(ref.size());
  for (std::uint32_t token : ref) {
    if (rng.bernoulli(DROP_PROBABILITY)) {
      continue;
    }
    out.push_back(rng.bernoulli(SUBSTITUTE_PROBABILITY) ? static_cast<std::uint32_t>(rng.below(VOCAB)) : token);
  }
  return out;
}

double sentence_bleu(const std::vector<std::uint32_t>& cand, const std::vector<std::uint32_t>& ref,
                     NgramCounts& counts) {
  double log_precision = 0.0;
  for (int order = 1; order <= MAX_ORDER; ++order) {
    auto n = static_cast<std::size_t>(order);
    std::size_t total = cand.size() >= n ? cand.size() - n + 1 : 0;
    counts.clear();
    for (std::size_t i = 0; i + n <= ref.size(); ++i) {
      ++counts[ngram_key(ref, i, order)];
    }
    std::size_t matched = 0;
    for (std::size_t i = 0; i < total; ++i) {
      auto it = counts.find(ngram_key(cand, i, order));
      if (it != counts.end() && it->second > 0) {
        --it->second;
        ++matched;
      }
    }
    double precision = total == 0 ? 0.0 : static_cast<double>(matched) / static_cast<double>(total);
    double smoothed =
        matched > 0 ? precision : ZERO_COUNT_EPSILON / static_cast<double>(std::max<std::size_t>(total, 1));
    log_precision += std::log(smoothed) / MAX_ORDER;
  }
  double ratio = ref.empty() ? 1.0 : static_cast<double>(cand.size()) / static_cast<double>(ref.size());
  double brevity = ratio >= 1.0 || cand.empty() ? 1.0 : std::exp(1.0 - 1.0 / ratio);
  return cand.empty() ? 0.0 : brevity * std::exp(log_precision);
}

} // namespace

MetricCorpus generate_corpus(std::uint32_t samples, std::uint32_t tokens, std::uint64_t seed) {
  model::Rng rng(seed, "calibrate.metric_corpus");
  MetricCorpus corpus;
  for (std::uint32_t s = 0; s < samples; ++s) {
    std::vector<std::uint32_t> ref(tokens);
    for (auto& token : ref) {
      token = static_cast<std::uint32_t>(rng.below(VOCAB));
    }
    corpus.candidates.push_back(rng.bernoulli(EXACT_COPY_SHARE) ? ref : mutate(ref, rng));
    corpus.candidate_tokens += corpus.candidates.back().size();
    corpus.references.push_back(std::move(ref));
  }
  return corpus;
}

MetricScores score_corpus(const MetricCorpus& corpus) {
  MetricScores scores;
  NgramCounts counts;
  std::size_t exact = 0;
  double bleu_sum = 0.0;
  for (std::size_t i = 0; i < corpus.references.size(); ++i) {
    const auto& cand = corpus.candidates[i];
    const auto& ref = corpus.references[i];
    exact += cand == ref ? 1 : 0;
    bleu_sum += sentence_bleu(cand, ref, counts);
  }
  auto n = static_cast<double>(std::max<std::size_t>(corpus.references.size(), 1));
  scores.exact_match_rate = static_cast<double>(exact) / n;
  scores.mean_bleu = bleu_sum / n;
  return scores;
}

} // namespace acme::tools::calibrate
