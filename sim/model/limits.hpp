#pragma once

#include <cstdint>

#include "sim/model/units.hpp"

namespace acme::model::limits {

// The bounds of what a config, a trace or the command line may ask for. Each is checked where the value is
// parsed (after unit conversion) and named in the error; README.md "Bounds" lists them. They keep every run
// finite in time and memory: beyond them a value is a typo or a broken trace, not a datacenter.

// Platform. The largest GPU clusters of 2024 have ~100k GPUs (12.5k nodes of 8); the bounds leave 8x room.
inline constexpr std::uint32_t MAX_CLUSTERS = 64;
inline constexpr std::uint32_t MAX_NODES_PER_CLUSTER = 100'000;
inline constexpr std::uint32_t MAX_GPUS_PER_NODE = 1'024; ///< also processors per node of kind: hpc
inline constexpr std::uint32_t MAX_CPU_CORES_PER_NODE = 65'536;
inline constexpr std::uint32_t MAX_NICS_PER_NODE = 64;
inline constexpr std::uint32_t MAX_COUNT = 1'000'000; ///< any other count (users, snapshots, spares, ...)

// Quantities with units, in SI base units after conversion.
inline constexpr double MAX_BANDWIDTH_BPS = 1e15; ///< 1 PB/s: above any link or storage system built
inline constexpr double MIN_BANDWIDTH_BPS = 1e3;  ///< 8 kb/s: below it a checkpoint outlasts any trace
inline constexpr double MAX_BYTES = 1e18;         ///< 1 EB
inline constexpr double MAX_POWER_W = 1e9;        ///< 1 GW
inline constexpr double MAX_DURATION_S = 10 * 365 * SECONDS_PER_DAY; ///< any configured duration: 10 years

// Jobs of a trace (every format).
inline constexpr double MAX_JOB_DURATION_S = 365 * SECONDS_PER_DAY; ///< a job running longer is a broken row
inline constexpr std::uint32_t MAX_JOB_GPUS = 1u << 24;             ///< 16.7M GPUs (or SWF processors)
inline constexpr int MIN_YEAR = 1970;                               ///< dates in traces and configs
inline constexpr int MAX_YEAR = 2199;
inline constexpr double MAX_UTC_OFFSET_S = 14 * SECONDS_PER_HOUR; ///< UTC+14 (Kiribati) is the widest zone

// Outputs and run size.
inline constexpr double MIN_TIMESERIES_INTERVAL_S = 1.0;
inline constexpr std::uint64_t MAX_TIMESERIES_ROWS = 2'000'000; ///< about 140 MB of timeseries.csv
/// Synthetic workloads: days x scale (the default workload is 183 days x 1, about 1.1M jobs).
inline constexpr double MAX_SYNTHETIC_DAY_SCALE = 1830.0;

// Models.
inline constexpr double MAX_FAILURES_PER_1000_NODE_DAYS = 100'000.0; ///< 100 failures per node-day
inline constexpr double MIN_CHECKPOINT_INTERVAL_S = 1.0;
/// A restarted job that fails this many times in a row without a newer checkpoint could never finish.
inline constexpr std::uint32_t MAX_FAILURES_WITHOUT_PROGRESS = 100;

// Studies.
inline constexpr std::uint64_t MAX_SEEDS = 10'000;
inline constexpr std::uint64_t MAX_STUDY_POINTS = 100'000;
/// Overrides after `[*]` steps are expanded (clusters[*].x is one per cluster; nested lists multiply).
inline constexpr std::size_t MAX_EXPANDED_OVERRIDES = 100'000;

} // namespace acme::model::limits
