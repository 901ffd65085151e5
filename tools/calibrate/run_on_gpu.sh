#!/usr/bin/env bash
# Builds acme-calibrate-cuda (Release) and runs a short calibration on this machine's GPU:
#   tools/calibrate/run_on_gpu.sh NAME [acme-calibrate options...]
# writes configs/calibration/NAME-measured.yaml (the calibration file), NAME-measured.raw.csv (every
# sample) and NAME-measured.log (the run's own summary). Example:
#   tools/calibrate/run_on_gpu.sh h200 --path /mnt/shared/scratch
set -euo pipefail
name=${1:?usage: tools/calibrate/run_on_gpu.sh NAME [acme-calibrate options...]}
shift
root=$(cd "$(dirname "$0")/../.." && pwd)
build="$root/build/calibrate"
mkdir -p "$root/build"
if ! command -v nvcc > /dev/null && [ -z "${CUDACXX:-}" ] && [ -x /usr/local/cuda/bin/nvcc ]; then
  export CUDACXX=/usr/local/cuda/bin/nvcc
fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DACME_BUILD_TESTS=OFF > "$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 2; }
cmake --build "$build" --target acme-calibrate-cuda
out="$root/configs/calibration/$name-measured"
"$build/tools/calibrate/acme-calibrate-cuda" --out "$out.yaml" --raw "$out.raw.csv" "$@" 2>&1 | tee "$out.log"
