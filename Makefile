# Entry points for people: `make run` and `make test` work on a fresh Debian 12 machine.
.PHONY: all deps build release run test test-asan fuzz validate bench format lint clean

all: build

deps:
	./tools/install_deps.sh

build: deps
	cmake --preset dev >/dev/null
	cmake --build --preset dev

release: deps
	cmake --preset release >/dev/null
	cmake --build --preset release

# Runs the main job: both Acme clusters on the default config.
run: release
	./build/release/sim/cli/acme-sim run configs/acme.yaml -o out/

# The default test suite (unit, end-to-end, golden); minutes on two cores.
test: deps
	cmake --preset ci >/dev/null
	cmake --build --preset ci
	ctest --preset ci

test-asan: deps
	cmake --preset asan >/dev/null
	cmake --build --preset asan
	ctest --preset asan

# Fuzzes every reader of user input (config with --set, units, the four trace formats, the failure trace,
# check's baseline, sweep's study file)
# with libFuzzer, ASan and UBSan (clang 14), FUZZ_SECONDS each (default 60); FUZZ_JOBS=2 runs two at once.
# Findings land in build/fuzz/findings/; not part of `make test`.
FUZZ_SECONDS ?= 60
fuzz:
	./tools/install_deps.sh fuzz
	cmake --preset fuzz >/dev/null
	cmake --build --preset fuzz
	./tools/fuzz/run_fuzzers.sh $(FUZZ_SECONDS)

# Fidelity checks against the paper (CTest label `validate`).
validate: deps
	cmake --preset ci >/dev/null
	cmake --build --preset ci
	ctest --test-dir build/ci -L '^(validate|fidelity)$$' --output-on-failure

# Throughput and memory figures (not a test).
bench: release
	./tools/bench.sh

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

# The checks .ci/run makes besides the tests: include layering (STYLE C1) and clang-format.
lint:
	./tools/ci/check_layering.sh
	./tools/ci/check_format.sh

clean:
	rm -rf build out
