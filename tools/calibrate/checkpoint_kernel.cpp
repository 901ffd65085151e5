// The checkpoint kernel. Definitions of the derived quantities (README "Fields"):
//   async_compute_slowdown_fraction = (T_loop_with_copy - T_loop) / T_async_copy
//   async_stall_fraction            = (T_loop_with_copy - T_loop) / T_sync_copy
// where T_loop is a loop of training GEMMs alone, T_loop_with_copy the same loop while the snapshot copy
// runs on the side stream, T_async_copy that copy's duration and T_sync_copy the same copy with the
// compute stopped (a synchronous snapshot's stall). A negative difference is timing noise (a copy cannot
// speed compute up) and counts as 0.
#include "tools/calibrate/checkpoint_kernel.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "tools/calibrate/buffers.hpp"
#include "tools/calibrate/checkpoint_file.hpp"
#include "tools/calibrate/fill_pattern.hpp"
#include "tools/calibrate/timer.hpp"

namespace acme::tools::calibrate {
namespace {

constexpr double BYTES_PER_GB = 1e9;
constexpr unsigned STATE_SEED = 14;       // pattern of the model state
constexpr unsigned SCRAMBLE_SEED = 15;    // overwrites the state before a restore
constexpr double LOOP_COVER_FACTOR = 2.0; // the compute loop lasts about twice the synchronous copy
constexpr int MAX_LOOP_DOUBLINGS = 4;
// One GEMM of the loop should take at most 1/8 of the synchronous copy, so that the copy overlaps many
// GEMMs and the loop's length tracks the copy closely; rows are halved down to 8 to get there.
constexpr double GEMMS_PER_COPY = 8.0;
constexpr std::size_t MIN_LOOP_ROWS = 8;

double gbps(std::size_t bytes, double seconds) {
  return static_cast<double>(bytes) / seconds / BYTES_PER_GB;
}

template <class Fn>
double timed_s(Fn&& fn) {
  double start = now_s();
  fn();
  return now_s() - start;
}

struct Buffers {
  Buffers(Backend& backend, std::size_t bytes)
      : state(backend, bytes)
      , pinned(backend, bytes, HostMemory::PINNED)
      , pageable(backend, bytes, HostMemory::PAGEABLE)
      , restored(backend, bytes, HostMemory::PINNED) {}
  DeviceBuffer state;
  HostBuffer pinned;
  HostBuffer pageable;
  HostBuffer restored;
  std::vector<std::byte> staging; ///< serialisation buffer
};

/// Copies of one repeat; returns the synchronous snapshot's duration.
double measure_copies(Backend& backend, Buffers& buf, CheckpointResults& out) {
  const std::size_t bytes = buf.state.size();
  double pageable_s =
      timed_s([&] { backend.copy_d2h(buf.pageable.get(), buf.state.get(), bytes, HostMemory::PAGEABLE); });
  double sync_s = timed_s([&] { backend.copy_d2h(buf.pinned.get(), buf.state.get(), bytes, HostMemory::PINNED); });
  double h2d_s = timed_s([&] { backend.copy_h2d(buf.state.get(), buf.pinned.get(), bytes, HostMemory::PINNED); });
  out.quantities.add("d2h_pageable_bw_GBps", gbps(bytes, pageable_s));
  out.quantities.add("d2h_pinned_bw_GBps", gbps(bytes, sync_s));
  out.quantities.add("h2d_pinned_bw_GBps", gbps(bytes, h2d_s));
  out.timings.add("sync_snapshot_s", sync_s);
  return sync_s;
}

/// Fits the training GEMM to the copy (fewer rows while one GEMM is too long) and sizes the loop.
void fit_compute_loop(Backend& backend, GemmShape shape, double sync_s, CheckpointResults& out) {
  double one_s = 0.0;
  for (;;) {
    backend.prepare_gemm(shape);
    backend.run_gemms(1); // warm-up (kernel load, caches)
    one_s = timed_s([&] { backend.run_gemms(1); });
    if (one_s <= sync_s / GEMMS_PER_COPY || shape.m <= MIN_LOOP_ROWS) {
      break;
    }
    shape.m = std::max(MIN_LOOP_ROWS, shape.m / 2);
  }
  out.compute_loop_gemm = shape;
  out.compute_loop_gemms = std::max(2, static_cast<int>(std::ceil(LOOP_COVER_FACTOR * sync_s / one_s)));
}

/// One async-snapshot repeat; grows the loop (at most a few times) until it outlasts the copy.
void measure_async(Backend& backend, Buffers& buf, double sync_s, CheckpointResults& out) {
  const std::size_t bytes = buf.state.size();
  for (int attempt = 0;; ++attempt) {
    const int gemms = out.compute_loop_gemms;
    double loop_s = timed_s([&] { backend.run_gemms(gemms); });
    backend.start_side_copy_d2h(buf.pinned.get(), buf.state.get(), bytes);
    double loop_with_copy_s = timed_s([&] { backend.run_gemms(gemms); });
    double copy_s = backend.finish_side_copy_s();
    if (copy_s > loop_with_copy_s && attempt < MAX_LOOP_DOUBLINGS) {
      out.compute_loop_gemms *= 2;
      continue;
    }
    double extra_s = std::max(0.0, loop_with_copy_s - loop_s);
    out.quantities.add("async_snapshot_bw_GBps", gbps(bytes, copy_s));
    out.quantities.add("async_compute_slowdown_fraction", extra_s / copy_s);
    out.quantities.add("async_stall_fraction", extra_s / sync_s);
    out.timings.add("async_snapshot_s", copy_s);
    out.timings.add("compute_loop_s", loop_s);
    out.timings.add("compute_loop_with_snapshot_s", loop_with_copy_s);
    return;
  }
}

/// Persist the pinned snapshot, read it back, restore it to a scrambled device buffer and check it.
void measure_persist_restore(Backend& backend, Buffers& buf, const std::string& file, CheckpointResults& out) {
  const std::size_t bytes = buf.state.size();
  const std::uint64_t expected = checksum64(buf.pinned.get(), bytes);
  WriteTiming w = write_checkpoint(file, buf.pinned.get(), bytes, buf.staging);
  out.page_cache_dropped = drop_page_cache(file) && out.page_cache_dropped;
  ReadTiming r = read_checkpoint(file, buf.restored.get(), bytes);
  backend.device_fill(buf.state.get(), bytes, SCRAMBLE_SEED);
  double h2d_s = timed_s([&] { backend.copy_h2d(buf.state.get(), buf.restored.get(), bytes, HostMemory::PINNED); });
  backend.copy_d2h(buf.pageable.get(), buf.state.get(), bytes, HostMemory::PAGEABLE);
  if (checksum64(buf.pageable.get(), bytes) != expected) {
    throw VerificationError("restored device memory differs from the snapshot that was written to " + file);
  }
  const double restore_s = r.read_s + r.verify_s + h2d_s;
  out.quantities.add("serialise_bw_GBps", gbps(bytes, w.serialise_s));
  out.quantities.add("storage_write_bw_GBps", gbps(bytes, w.write_s));
  out.quantities.add("storage_read_bw_GBps", gbps(bytes, r.read_s));
  out.quantities.add("restore_bw_GBps", gbps(bytes, restore_s));
  out.timings.add("checkpoint_persist_s", w.serialise_s + w.write_s);
  out.timings.add("restore_s", restore_s);
}

} // namespace

CheckpointResults run_checkpoint_kernel(Backend& backend, const Plan& plan, std::uint32_t repeats,
                                        const std::string& file) {
  CheckpointResults out;
  Buffers buf(backend, plan.measured_bytes);
  backend.device_fill(buf.state.get(), plan.measured_bytes, STATE_SEED);
  ScratchFile scratch(file);
  CheckpointResults warm_up;
  measure_copies(backend, buf, warm_up);
  for (std::uint32_t r = 0; r < repeats; ++r) {
    double sync_s = measure_copies(backend, buf, out);
    if (r == 0) {
      fit_compute_loop(backend, plan.train_gemm, sync_s, out);
    }
    measure_async(backend, buf, sync_s, out);
    measure_persist_restore(backend, buf, file, out);
  }
  return out;
}

} // namespace acme::tools::calibrate
