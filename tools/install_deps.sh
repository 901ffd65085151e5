#!/bin/sh
# Installs acme-sim's build and test dependencies from Debian's packages when any is missing.
# Idempotent: does nothing (and needs no root) when everything is there. `install_deps.sh fuzz` adds what
# `make fuzz` needs (clang 14 with libFuzzer and the sanitizer runtimes); `make test` does not need them.
set -eu
PACKAGES="cmake ninja-build g++ pkg-config libsimgrid-dev libboost-graph-dev libyaml-cpp-dev libtbb-dev \
libspdlog-dev libfmt-dev catch2 python3 python3-matplotlib python3-pandas clang-format chromium python3-dev pybind11-dev libjemalloc-dev"
if [ "${1:-}" = "fuzz" ]; then
  PACKAGES="$PACKAGES clang-14 libclang-rt-14-dev"
fi
missing=""
for p in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
if [ -z "$missing" ]; then
  exit 0
fi
echo "installing:$missing" >&2
SUDO=""
if [ "$(id -u)" != "0" ]; then
  SUDO="sudo"
fi
$SUDO apt-get -o DPkg::Lock::Timeout=300 update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o DPkg::Lock::Timeout=300 install -y --no-install-recommends $missing
