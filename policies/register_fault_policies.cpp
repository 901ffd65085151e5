#include "policies/builtin.hpp"
#include "policies/checkpoint/interval_policies.hpp"
#include "policies/recovery/automatic_recovery.hpp"
#include "policies/recovery/manual_recovery.hpp"
#include "sim/model/limits.hpp"

namespace acme::policies {
namespace {
constexpr double DEFAULT_MIN_INTERVAL_S = 60.0; // never checkpoint more often than once a minute
} // namespace

void register_builtin_checkpoint_policies(Registry<CheckpointPolicy>& registry) {
  registry.add("none", "never checkpoint: a failure loses the whole attempt", {},
               [](const config::Node& params, const PolicyContext&) {
                 expect_policy_keys(params, {});
                 return std::make_unique<NoCheckpoint>();
               });
  registry.add("fixed", "a checkpoint every `interval` of computation",
               {{"interval", "(required)", "computation between checkpoints, e.g. 30min"}},
               [](const config::Node& params, const PolicyContext&) {
                 expect_policy_keys(params, {"interval"});
                 config::Node interval = params["interval"];
                 if (!interval.is_defined()) {
                   params.fail("missing key \"interval\"; expected a duration such as \"30min\"");
                 }
                 double s = interval.as_duration_s();
                 if (s < model::limits::MIN_CHECKPOINT_INTERVAL_S) {
                   interval.fail("expected a duration of at least 1s such as \"30min\", got \"" + interval.as_string() +
                                 "\"");
                 }
                 return std::make_unique<FixedIntervalCheckpoint>(s);
               });
  std::vector<ParamDoc> optimal = {{"min_interval", "1min", "lower bound on the interval"}};
  auto make_optimal = [](bool higher_order) {
    return [higher_order](const config::Node& params, const PolicyContext&) {
      expect_policy_keys(params, {"min_interval"});
      double min_s = params.is_map()
                         ? params.get_or("min_interval", DEFAULT_MIN_INTERVAL_S, &config::Node::as_duration_s)
                         : DEFAULT_MIN_INTERVAL_S;
      if (min_s < model::limits::MIN_CHECKPOINT_INTERVAL_S) {
        params["min_interval"].fail("expected a duration of at least 1s such as \"1min\"");
      }
      return std::make_unique<OptimalIntervalCheckpoint>(higher_order, min_s);
    };
  };
  registry.add("young_daly",
               "Young's interval sqrt(2 C M): C the job's checkpoint stall, M its mean time between failures", optimal,
               make_optimal(false));
  registry.add("daly", "Daly's higher-order interval (Daly 2006, eq. 37)", optimal, make_optimal(true));
}

void register_builtin_recovery_policies(Registry<RecoveryPolicy>& registry) {
  registry.add("manual",
               "on-call people: detection depends on the local time of day, hangs show after a timeout, human "
               "diagnosis and isolation, then the job queues again",
               {{"work_start", "9h", "working hours start (local time)"},
                {"work_end", "21h", "working hours end (local time)"},
                {"weekends_off", "true", "Saturdays and Sundays are off hours"},
                {"day_detect", "lognormal median 20min", "detection delay in working hours"},
                {"night_detect", "lognormal median 4h", "detection delay off hours (capped by the next morning)"},
                {"hang_timeout", "30min", "a hang is noticed only after this timeout"},
                {"diagnose", "lognormal median 45min", "human diagnosis"},
                {"isolate", "lognormal median 30min", "human isolation of the faulty node"}},
               [](const config::Node& params, const PolicyContext&) {
                 expect_policy_keys(params, {"work_start", "work_end", "weekends_off", "day_detect", "night_detect",
                                             "hang_timeout", "diagnose", "isolate"});
                 return std::make_unique<ManualRecovery>(ManualRecoveryParams::parse(params));
               });
  registry.add("automatic",
               "log-based detection and diagnosis, two-round pair test to find the faulty node, isolation, "
               "immediate restart from the last good checkpoint",
               {{"detect_crash", "30s", "detection of a crash"},
                {"detect_hang", "5min", "detection of a hang (stalled log)"},
                {"diagnose", "lognormal median 2min", "log rules + LLM agent"},
                {"pair_round_base", "60s", "one round of the pair test"},
                {"pair_round_per_node", "0.25s", "... plus this per node of the job"},
                {"pair_rounds", "2", "rounds of the pair test"},
                {"human_share", "0.1", "share of failures that still need a person (handled as `manual`)"},
                {"manual", "(manual defaults)", "parameters of the manual path"}},
               [](const config::Node& params, const PolicyContext&) {
                 expect_policy_keys(params, {"detect_crash", "detect_hang", "diagnose", "pair_round_base",
                                             "pair_round_per_node", "pair_rounds", "human_share", "manual"});
                 if (params.is_map() && params["manual"].is_defined()) {
                   params["manual"].expect_keys({"work_start", "work_end", "weekends_off", "day_detect", "night_detect",
                                                 "hang_timeout", "diagnose", "isolate"});
                 }
                 return std::make_unique<AutomaticRecovery>(AutomaticRecoveryParams::parse(params));
               });
}

} // namespace acme::policies
