# rawburst — developer entry points. `make` alone lists them.
#
# Variables (override on the command line, e.g. `make test SCRATCH_PATH=.build-ci`):
#   SHARED        folder holding samples-raw/ with the real camera raws (default ../shared)
#   SWIFT         the swift driver
#   SCRATCH_PATH  SwiftPM build folder (default .build); name others .build-NAME (they are git-ignored)
#   TEST_ARGS     extra arguments for `swift test`, e.g. TEST_ARGS="--filter RawCoreTests"
#   PREFIX        where `make install` puts the C library, its header and rawburst.pc (default /usr/local)
#   DESTDIR       a staging root for `make install` (packaging), prepended to PREFIX
#   FUZZ_SECONDS  how long `make fuzz` runs each target (default 600)
#   FUZZ_CONFIG   debug (default: libFuzzer + AddressSanitizer) or release (libFuzzer only, faster, fewer checks)
#   FUZZ_ARGS     extra libFuzzer flags, e.g. FUZZ_ARGS="-jobs=2 -workers=2" or FUZZ_ARGS=-seed=1
#   FUZZ_TARGETS  which fuzz targets `make fuzz` runs, one after the other (default: LJ92 TIFF RawFile Picture Text)
#   FUZZ_MALLOC_MB  the largest single allocation a fuzz input may cause, in MiB (default 256)

SHELL        := /bin/bash
.DEFAULT_GOAL := help

SHARED       ?= ../shared
SWIFT        ?= swift
SCRATCH_PATH ?= .build
TEST_ARGS    ?=
FUZZ_SECONDS ?= 600
PREFIX       ?= /usr/local
DESTDIR      ?=
# The C library is built in release with Swift's runtime linked in (-static-stdlib), in a folder of its own, so that it
# loads into any process (Python's among them) without the Swift toolchain's libraries.
LIB_SCRATCH  ?= .build-librel
LIB_BUILD    := $(SWIFT) build -c release --product CRawBurst --scratch-path $(LIB_SCRATCH) -Xswiftc -static-stdlib
FUZZ_CONFIG  ?= debug
FUZZ_ARGS    ?=
FUZZ_TARGETS ?= LJ92 TIFF RawFile Picture Text
FUZZ_MALLOC_MB ?= 256

SWIFTPM_FLAGS := --scratch-path $(SCRATCH_PATH)
# The fuzz package (Fuzz/) builds only with -sanitize=fuzzer; its scratch path stays inside Fuzz/.build.
FUZZ_SANITIZE_debug   := fuzzer,address
FUZZ_SANITIZE_release := fuzzer
FUZZ_BUILD    := $(SWIFT) build --package-path Fuzz --scratch-path Fuzz/.build -c $(FUZZ_CONFIG) \
                 -Xswiftc -sanitize=$(FUZZ_SANITIZE_$(FUZZ_CONFIG))
export SHARED

.PHONY: help deps build lib install docs test demo bench fuzz sanitize clean

help: ## List the targets
	@echo "rawburst — make targets:"
	@grep -E '^[a-z]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z]+):.*## (.*)/  make \1\t\2/' | expand -t 16
	@echo
	@echo "Variables: SHARED=$(SHARED) SCRATCH_PATH=$(SCRATCH_PATH) SWIFT=$(SWIFT) TEST_ARGS=$(TEST_ARGS)"

deps: ## Install missing build libraries, external checkers and Python packages (fast no-op when present)
	@scripts/deps.sh

build: ## Release build of the rawburst command-line tool
	$(SWIFT) build -c release --product rawburst $(SWIFTPM_FLAGS)

lib: ## Release build of the C library: .build-lib/lib/librawburst.so.1, include/rawburst.h, lib/pkgconfig/rawburst.pc
	$(LIB_BUILD)
	@scripts/stage-lib.sh "$$($(LIB_BUILD) --show-bin-path)/libCRawBurst.so" .build-lib "$(PREFIX)"

install: lib ## Install the C library, rawburst.h and rawburst.pc under $(DESTDIR)$(PREFIX) (PREFIX=/usr/local)
	@scripts/stage-lib.sh "$$($(LIB_BUILD) --show-bin-path)/libCRawBurst.so" "$(DESTDIR)$(PREFIX)" "$(PREFIX)"
	@# The dynamic linker's cache, so that programs find librawburst.so.1 at once (a root install, not a staging one).
	@if [[ -z "$(DESTDIR)" && $$(id -u) == 0 ]]; then ldconfig; fi

# The umbrella's catalog (articles) and every library module's API, combined into one archive.
DOC_TARGETS := RawBurst RawCore LJ92 RawDigest RawTIFF RawDevelop RawImageIO RawDNG RawAnalysis RawSources RawCameras \
               RawAravis RawFiles RawSimulator RawCapture RawJobs RawLive

docs: ## The DocC documentation (articles + every module's API) into .build-docs/rawburst.doccarchive; fails on a warning
	$(SWIFT) package --scratch-path .build-docs --allow-writing-to-directory .build-docs generate-documentation \
		$(addprefix --target ,$(DOC_TARGETS)) --enable-experimental-combined-documentation \
		--output-path .build-docs/rawburst.doccarchive --warnings-as-errors

test: deps ## Install deps, then run every test (XCTest + Swift Testing) with a summary line
	@SWIFT="$(SWIFT)" SWIFT_TEST_ARGS="$(SWIFTPM_FLAGS) $(TEST_ARGS)" scripts/test.sh

demo: deps build ## Capture with the simulated sensor, convert a real camera raw, develop, inspect (into demo-out/)
	@RAWBURST="$$($(SWIFT) build -c release $(SWIFTPM_FLAGS) --show-bin-path)/rawburst" scripts/demo.sh

bench: ## Run the benchmarks in Benchmarks/ (ordo-one/benchmark)
	@if [[ ! -f Benchmarks/Package.swift ]]; then \
		echo "bench: Benchmarks/Package.swift does not exist yet; nothing to run"; exit 0; fi
	cd Benchmarks && $(SWIFT) package --allow-writing-to-package-directory benchmark

# SWIFT_BACKTRACE=enable=no: a failed check is reported by libFuzzer (Swift's own backtracer trips ASan). Leak
# detection is off for FuzzRawFile only: LibRaw 0.20 leaks libjpeg's decoder when a JPEG-compressed raw is corrupt
# (about 36 KB a file, inside LibRaw: Fuzz/README.md), which would stop every run.
fuzz: ## libFuzzer + ASan on each of FUZZ_TARGETS for FUZZ_SECONDS (600) each; fails on a finding (Fuzz/README.md)
	$(FUZZ_BUILD)
	@bin="$$($(FUZZ_BUILD) --show-bin-path)"; mkdir -p Fuzz/artifacts; \
	for target in $(FUZZ_TARGETS); do \
		corpus=Fuzz/corpus/$$target; \
		if [[ -z "$$(ls -A $$corpus 2>/dev/null)" ]]; then "$$bin/Fuzz$$target" --make-corpus $$corpus || exit 1; fi; \
		leaks=1; [[ $$target == RawFile ]] && leaks=0; \
		( set -x; SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=Fuzz/lsan.supp ASAN_OPTIONS=detect_leaks=$$leaks \
			"$$bin/Fuzz$$target" -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
			-rss_limit_mb=2048 -malloc_limit_mb=$(FUZZ_MALLOC_MB) -detect_leaks=$$leaks -print_final_stats=1 \
			-artifact_prefix=Fuzz/artifacts/$$target- $(FUZZ_ARGS) $$corpus ) || exit 1; \
	done

# AddressSanitizer: a report aborts the process (a signal every test sees, never a plain exit status 1), and leak
# checking is off (Swift's globals live until exit). ThreadSanitizer: the engine's threads and the shared pieces.
# TSan cannot see Synchronization.Mutex here (Tests/tsan.supp says which reports were checked to be that); the
# filter is the engine: the burst, its pool, books, journal and faults, the two-sensor source, and the live previewer.
SANITIZE_ENV  := ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:halt_on_error=1 \
                 TSAN_OPTIONS=halt_on_error=1:abort_on_error=1:suppressions=$(CURDIR)/Tests/tsan.supp SWIFT_BACKTRACE=enable=no
TSAN_FILTER   ?= RawCaptureTests|DualSourceTests|LivePreviewerTests

sanitize: deps ## Every test under AddressSanitizer, then the engine's tests under ThreadSanitizer (.build-asan, .build-tsan)
	@$(SANITIZE_ENV) SWIFT="$(SWIFT)" TEST_LOG=.build-logs/asan.log \
		SWIFT_TEST_ARGS="--scratch-path .build-asan --sanitize=address $(TEST_ARGS)" scripts/test.sh
	@$(SANITIZE_ENV) SWIFT="$(SWIFT)" TEST_LOG=.build-logs/tsan.log \
		SWIFT_TEST_ARGS="--scratch-path .build-tsan --sanitize=thread --filter $(TSAN_FILTER) $(TEST_ARGS)" scripts/test.sh

clean: ## Remove build products (of SCRATCH_PATH), test logs and demo output
	$(SWIFT) package $(SWIFTPM_FLAGS) clean
	rm -rf demo-out .build-logs
