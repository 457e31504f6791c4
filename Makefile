# rawburst — developer entry points. `make` alone lists them.
#
# Variables (override on the command line, e.g. `make test SCRATCH_PATH=.build-ci`):
#   SHARED        folder holding samples-raw/ with the real camera raws (default ../shared)
#   SWIFT         the swift driver
#   SCRATCH_PATH  SwiftPM build folder (default .build); name others .build-NAME (they are git-ignored)
#   TEST_ARGS     extra arguments for `swift test`, e.g. TEST_ARGS="--filter RawCoreTests"
#   FUZZ_SECONDS  how long `make fuzz` runs (default 600)
#   FUZZ_CONFIG   debug (default: libFuzzer + AddressSanitizer) or release (libFuzzer only, faster, fewer checks)
#   FUZZ_ARGS     extra libFuzzer flags, e.g. FUZZ_ARGS="-jobs=2 -workers=2" or FUZZ_ARGS=-seed=1

SHELL        := /bin/bash
.DEFAULT_GOAL := help

SHARED       ?= ../shared
SWIFT        ?= swift
SCRATCH_PATH ?= .build
TEST_ARGS    ?=
FUZZ_SECONDS ?= 600
FUZZ_CONFIG  ?= debug
FUZZ_ARGS    ?=

SWIFTPM_FLAGS := --scratch-path $(SCRATCH_PATH)
# The fuzz package (Fuzz/) builds only with -sanitize=fuzzer; its scratch path stays inside Fuzz/.build.
FUZZ_SANITIZE_debug   := fuzzer,address
FUZZ_SANITIZE_release := fuzzer
FUZZ_BUILD    := $(SWIFT) build --package-path Fuzz --scratch-path Fuzz/.build -c $(FUZZ_CONFIG) \
                 -Xswiftc -sanitize=$(FUZZ_SANITIZE_$(FUZZ_CONFIG))
export SHARED

.PHONY: help deps build test demo bench fuzz clean

help: ## List the targets
	@echo "rawburst — make targets:"
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z]+):.*## (.*)/  make \1\t\2/' | expand -t 16
	@echo
	@echo "Variables: SHARED=$(SHARED) SCRATCH_PATH=$(SCRATCH_PATH) SWIFT=$(SWIFT) TEST_ARGS=$(TEST_ARGS)"

deps: ## Install missing build libraries, external checkers and Python packages (fast no-op when present)
	@scripts/deps.sh

build: ## Release build of the rawburst command-line tool
	$(SWIFT) build -c release --product rawburst $(SWIFTPM_FLAGS)

test: deps ## Install deps, then run every test (XCTest + Swift Testing) with a summary line
	@SWIFT="$(SWIFT)" SWIFT_TEST_ARGS="$(SWIFTPM_FLAGS) $(TEST_ARGS)" scripts/test.sh

demo: deps build ## Capture with the simulated sensor, convert a real camera raw, develop, inspect (into demo-out/)
	@RAWBURST="$$($(SWIFT) build -c release $(SWIFTPM_FLAGS) --show-bin-path)/rawburst" scripts/demo.sh

bench: ## Run the benchmarks in Benchmarks/ (ordo-one/benchmark)
	@if [[ ! -f Benchmarks/Package.swift ]]; then \
		echo "bench: Benchmarks/Package.swift does not exist yet; nothing to run"; exit 0; fi
	cd Benchmarks && $(SWIFT) package --allow-writing-to-package-directory benchmark

fuzz: ## libFuzzer + ASan on the lossless-JPEG decoder for FUZZ_SECONDS (600); fails on a crash (Fuzz/README.md)
	$(FUZZ_BUILD)
	@fuzzer="$$($(FUZZ_BUILD) --show-bin-path)/FuzzLJ92"; \
	if [[ -z "$$(ls -A Fuzz/corpus 2>/dev/null)" ]]; then "$$fuzzer" --make-corpus Fuzz/corpus || exit 1; fi; \
	mkdir -p Fuzz/artifacts; \
	set -x; "$$fuzzer" -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix=Fuzz/artifacts/ $(FUZZ_ARGS) Fuzz/corpus

clean: ## Remove build products (of SCRATCH_PATH), test logs and demo output
	$(SWIFT) package $(SWIFTPM_FLAGS) clean
	rm -rf demo-out .build-logs
