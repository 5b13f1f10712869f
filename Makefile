# foliowatch: plain Makefile, dependencies through pkg-config.
# Sources are picked up by folder, so adding a file needs no edit here:
#   lib/*.c schema/*.c -> build/libfw.a       (general helpers + data layer)
#   analysis/*.c    -> build/libfwanalysis.a     (statistics, verdicts, regressions, report)
#   server/*.c      -> build/foliowatch-server   (server/main.c holds main)
#   collector/*.c   -> build/foliowatch-collect  (collector/main.c holds main)
#   kernel/guest/*.c-> build/guest/fw-init  (static guest init, with lib/crc32.c)
#   tests/unit/test-*.c -> build/tests/test-*   (each links libfw, libfwanalysis + server/collector objects)
# Layers (include paths per folder, checked by `make check-layers`):
#   lib <- schema <- analysis <- server, collector; server and collector never see each other.

CC      ?= cc
PKG_CONFIG ?= pkg-config
PKGS    := libmicrohttpd sqlite3 libcjson zlib
BUILD   ?= build
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)

WARN := -Wall -Wextra -Wformat=2 -Wformat-security -Wstrict-prototypes \
        -Wmissing-prototypes -Wvla -Wwrite-strings -Wshadow -Wpointer-arith \
        -Wcast-qual -Wundef -Wold-style-definition -Wnull-dereference \
        -Wimplicit-fallthrough
ifneq ($(WERROR),0)
WARN += -Werror
endif
OPT     ?= -O2 -g
CFLAGS  ?= $(OPT)
ALL_CFLAGS = -std=gnu11 $(WARN) $(CFLAGS) -D_GNU_SOURCE \
             $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
LIBS    := $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null) -lm -lpthread
# Quiet by default ("  CC file"); V=1 prints the full commands.
V ?= 0
ifeq ($(V),1)
Q :=
quiet =
else
Q := @
quiet = @printf '  %-6s %s\n' $(1) $(2);
endif

ifdef SANITIZE
ALL_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
LDFLAGS    += -fsanitize=$(SANITIZE)
endif

# Layers: each folder's sources see only the headers of their own folder and
# of the layers under it (lib <- schema <- analysis <- server, collector);
# server/ and collector/ never see each other. `make check-layers` checks it.
INC_lib       := -Ilib
INC_schema    := -Ischema $(INC_lib)
INC_analysis  := -Ianalysis $(INC_schema)
INC_server    := -Iserver $(INC_analysis)
INC_collector := -Icollector $(INC_analysis)
# kernel/guest/ and tests/data/ share only crc32 with the host side.
INC_guest     := -Ilib
# tests/unit/ and tests/fuzz/ link both programs' code and see every folder.
INC_all       := -Iserver -Icollector $(INC_analysis)
# The include flags of a source file: those of its top folder (server/x.c -> INC_server),
# given before ALL_CFLAGS so that our headers come before pkg-config's folders.
layer_inc = $(INC_$(firstword $(subst /, ,$(1))))

LIB_SRC     := $(wildcard lib/*.c schema/*.c)
ANALYSIS_SRC := $(wildcard analysis/*.c)
SERVER_SRC  := $(filter-out server/main.c,$(wildcard server/*.c))
COLLECT_SRC := $(filter-out collector/main.c,$(wildcard collector/*.c))
GUEST_SRC   := $(wildcard kernel/guest/*.c)
UNIT_SRC    := $(wildcard tests/unit/test-*.c)

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
LIB_OBJ     := $(call obj,$(LIB_SRC))
ANALYSIS_OBJ := $(call obj,$(ANALYSIS_SRC))
SERVER_OBJ  := $(call obj,$(SERVER_SRC))
COLLECT_OBJ := $(call obj,$(COLLECT_SRC))
UNIT_BIN    := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
MIGRATIONS  := $(sort $(wildcard schema/migrations/*.sql))

PROGRAMS := $(BUILD)/foliowatch-server $(BUILD)/foliowatch-collect
ifneq ($(GUEST_SRC),)
PROGRAMS += $(BUILD)/guest/fw-init
endif

# make test's exec trace of the ASan lane (fanotify: LeakSanitizer cannot run under
# strace's ptrace). A test tool, never sanitized.
EXEC_WATCH := $(BUILD)/exec-watch
# A tiny static init for testing boots without the real guest (tests/t3*.sh): no sanitizers.
TEST_INIT := $(BUILD)/tests/fw-test-init
# The example workload's folder (kernel/workloads/README.md).
EXAMPLE_WL := $(BUILD)/workloads/lru-contention

.PHONY: FORCE all deps check-layers check-function-length test test-quick test-unit test-asan test-kernel demo bench bench-build fuzz fuzz-smoke clean
# other-build: the analysis as a foliowatch of another version runs it (t0125).
all: $(PROGRAMS) $(UNIT_BIN) $(TEST_INIT) $(BUILD)/tests/other-build $(EXAMPLE_WL)/lru-contention $(BUILD)/tests/broken-workload \
	$(EXEC_WATCH)

# Install build, test and demo dependencies when something is missing.
deps:
	@ci/install-deps.sh --if-missing

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) $(call layer_inc,$<) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# Migrations are compiled in: schema/migrations/NNNN-*.sql become C strings.
$(BUILD)/gen/migrations.c: $(MIGRATIONS) schema/gen-migrations.sh
	@mkdir -p $(dir $@)
	$(call quiet,GEN,$@)sh schema/gen-migrations.sh $(MIGRATIONS) > $@.tmp && mv $@.tmp $@
$(BUILD)/obj/gen/migrations.o: $(BUILD)/gen/migrations.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) $(INC_schema) $(ALL_CFLAGS) -c $< -o $@

# The version is one generated object (lib/version.h), rewritten only when `git describe` changes.
$(BUILD)/gen/version.c: FORCE
	@mkdir -p $(dir $@)
	@# one shell, a temp file of its own: two makes in one tree (CI shards) must not race
	@t=$@.$$$$.tmp; printf '#include "version.h"\nconst char fw_version[] = "%s";\n' '$(VERSION)' > $$t && \
	if cmp -s $$t $@; then rm -f $$t; else mv -f $$t $@ && echo "  GEN     $@ ($(VERSION))"; fi
$(BUILD)/obj/gen/version.o: $(BUILD)/gen/version.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) -Ilib $(ALL_CFLAGS) -c $< -o $@
FORCE:

# The OpenAPI document is compiled in too: the server answers with what it was built with.
$(BUILD)/gen/openapi.c: server/openapi.json server/gen-cstring.sh
	@mkdir -p $(dir $@)
	$(call quiet,GEN,$@)sh server/gen-cstring.sh fw_openapi_json server/openapi.json > $@.tmp && mv $@.tmp $@
$(BUILD)/obj/gen/openapi.o: $(BUILD)/gen/openapi.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) $(INC_server) $(ALL_CFLAGS) -c $< -o $@

$(BUILD)/libfw.a: $(LIB_OBJ) $(BUILD)/obj/gen/migrations.o $(BUILD)/obj/gen/version.o
	@rm -f $@
	$(call quiet,AR,$@)$(AR) rcs $@ $^
# The analysis' code identity: a hash of every source its results depend on (the
# analysis, lib/ and schema/ with the migrations), in the cached analysis' key, so
# that a server rebuilt for a page or an API change keeps a year of analyses while
# a changed analysis never serves an old one's answers.
ANALYSIS_CODE_IN := $(sort $(ANALYSIS_SRC) $(wildcard analysis/*.h) $(LIB_SRC) $(wildcard lib/*.h schema/*.h) $(MIGRATIONS))
$(BUILD)/gen/analysis-code.c: $(ANALYSIS_CODE_IN)
	@mkdir -p $(dir $@)
	$(call quiet,GEN,$@)printf 'const char fw_analysis_code[] = "%s";\n' \
		"$$(cat $(ANALYSIS_CODE_IN) | sha256sum | cut -c1-16)" > $@.tmp && mv $@.tmp $@
$(BUILD)/obj/gen/analysis-code.o: $(BUILD)/gen/analysis-code.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) $(ALL_CFLAGS) -c $< -o $@
$(BUILD)/libfwanalysis.a: $(ANALYSIS_OBJ) $(BUILD)/obj/gen/analysis-code.o
	@rm -f $@
	$(call quiet,AR,$@)$(AR) rcs $@ $^
$(BUILD)/libfwserver.a: $(SERVER_OBJ) $(BUILD)/obj/gen/openapi.o
	@rm -f $@
	$(call quiet,AR,$@)$(AR) rcs $@ $^
$(BUILD)/libfwcollect.a: $(COLLECT_OBJ)
	@rm -f $@
	$(call quiet,AR,$@)$(AR) rcs $@ $^

$(BUILD)/foliowatch-server: $(BUILD)/obj/server/main.o $(BUILD)/libfwserver.a $(BUILD)/libfwanalysis.a $(BUILD)/libfw.a
	$(call quiet,LD,$@)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)
$(BUILD)/foliowatch-collect: $(BUILD)/obj/collector/main.o $(BUILD)/libfwcollect.a $(BUILD)/libfwanalysis.a $(BUILD)/libfw.a
	$(call quiet,LD,$@)$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)
$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libfwserver.a $(BUILD)/libfwcollect.a $(BUILD)/libfwanalysis.a $(BUILD)/libfw.a
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) -Itests/unit $(INC_all) $(ALL_CFLAGS) -MMD -MP -o $@ $< $(BUILD)/libfwserver.a $(BUILD)/libfwcollect.a $(BUILD)/libfwanalysis.a $(BUILD)/libfw.a $(LDFLAGS) $(LIBS)

# The guest init runs as PID 1 in an initramfs: static, no sanitizers.
GUEST_CFLAGS = $(INC_guest) -std=gnu11 $(WARN) -O2 -D_GNU_SOURCE
$(BUILD)/guest/fw-init: $(GUEST_SRC) lib/crc32.c $(wildcard kernel/guest/*.h) lib/crc32.h
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(GUEST_CFLAGS) -static -o $@ $(GUEST_SRC) lib/crc32.c -lpthread

# The example of your own workload (kernel/workloads/README.md), built as a user would:
# its folder with the program beside workload.json, static (the guest has no libraries).
$(EXAMPLE_WL)/lru-contention: kernel/workloads/examples/lru-contention/lru-contention.c kernel/workloads/examples/lru-contention/workload.json
	@mkdir -p $(dir $@)
	cp kernel/workloads/examples/lru-contention/workload.json $(dir $@)
	$(call quiet,CC,$@)$(CC) -std=gnu11 $(WARN) -O2 -static -o $@ $< -lpthread

# A user workload program that fails on purpose, static as a user's must be (t3110).
$(BUILD)/tests/broken-workload: tests/data/broken-workload.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) -std=gnu11 $(WARN) -O2 -static -o $@ $<

$(EXEC_WATCH): ci/exec-watch.c
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) -std=gnu11 $(WARN) -O2 -D_GNU_SOURCE -o $@ $<

$(TEST_INIT): tests/data/fw-test-init.c lib/crc32.c lib/crc32.h
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(GUEST_CFLAGS) -static -o $@ tests/data/fw-test-init.c lib/crc32.c

# Tests. test-quick: no kernel (the inner loop). test: everything, one prove summary.
# The longest first (t2200 ~5 min under ASan, t1040 ~1.5): run last, two at a
# time, they were the pass's tail, one core idle.
QUICK_FIRST  = $(wildcard tests/t2200-decided.sh tests/t1040-server-browser.sh)
QUICK_TESTS  = $(QUICK_FIRST) $(filter-out $(QUICK_FIRST),$(sort $(filter-out $(wildcard tests/t3*.sh tests/t4*.sh),$(wildcard tests/t*.sh))))
KERNEL_TESTS = $(sort $(wildcard tests/t3*.sh tests/t4*.sh))
# make test's lanes (tests/lib/test-lanes.sh). t3000 checks that TCG counters move
# in every round: it runs last, alone, after every lane is done.
LANE_A_TESTS = $(sort $(wildcard tests/t4*.sh))
# lane A's tests that build commits of their own in the default tree or check
# which branch it is on: one at a time in A's first worker, never beside
# each other (the others boot prebuilt kernels and leave the tree alone)
LANE_A_TREE_TESTS = $(wildcard tests/t4000-collector-series.sh tests/t4300-watch.sh tests/t4600-bisect.sh \
	tests/t4610-bisect-clean.sh)
LANE_LAST_TESTS = $(wildcard tests/t3000-guest-boot.sh)
LANE_B_TESTS = $(filter-out $(LANE_LAST_TESTS),$(sort $(wildcard tests/t3*.sh)))
PROVE = prove --timer --failures --exec 'sh tests/lib/run-one.sh'
# The quick tests are independent (each its own temp dir, DB and free port):
# two at a time halves them on 2 cores (341 s -> 180 s). Kernel tests stay one
# at a time: boots take the host lock and t4100 measures against a budget.
QUICK_JOBS ?= 2
PROVE_QUICK = $(PROVE) -j$(QUICK_JOBS)
export BUILD

# Layering: probes compiled with each folder's own flags, and the symbols each
# folder's objects use (tests/check-layers.sh).
check-layers: export FW_CC = $(CC)
check-layers: export FW_LAYER_lib = $(INC_lib) $(ALL_CFLAGS)
check-layers: export FW_LAYER_schema = $(INC_schema) $(ALL_CFLAGS)
check-layers: export FW_LAYER_analysis = $(INC_analysis) $(ALL_CFLAGS)
check-layers: export FW_LAYER_server = $(INC_server) $(ALL_CFLAGS)
check-layers: export FW_LAYER_collector = $(INC_collector) $(ALL_CFLAGS)
check-layers: export FW_LAYER_guest = $(GUEST_CFLAGS)
check-layers: export FW_OBJ_lib = $(call obj,$(wildcard lib/*.c))
check-layers: export FW_OBJ_schema = $(call obj,$(wildcard schema/*.c))
check-layers: export FW_OBJ_analysis = $(ANALYSIS_OBJ)
check-layers: export FW_OBJ_server = $(SERVER_OBJ) $(BUILD)/obj/server/main.o
check-layers: export FW_OBJ_collector = $(COLLECT_OBJ) $(BUILD)/obj/collector/main.o
check-layers: $(LIB_OBJ) $(ANALYSIS_OBJ) $(SERVER_OBJ) $(COLLECT_OBJ) $(BUILD)/obj/server/main.o $(BUILD)/obj/collector/main.o
	@sh tests/check-layers.sh

# No function over 120 lines but for the listed ones (tests/check-function-length.sh).
check-function-length:
	@sh tests/check-function-length.sh

test-quick: all
	$(MAKE) check-layers
	$(MAKE) check-function-length
	$(PROVE_QUICK) $(UNIT_BIN) $(QUICK_TESTS)
test-kernel: all
	$(PROVE) $(KERNEL_TESTS)
# The last pass runs under strace (execve only, seccomp-filtered: cheap) and every
# program it ran must come from ci/install-deps.sh (ci/check-exec-deps.py).
# LeakSanitizer cannot run under ptrace: the quick tests run once, on the ASan
# build, traced by ci/exec-watch (fanotify) instead, in lane Q beside the kernel
# lanes (tests/lib/test-lanes.sh says why that is sound). The default kernel,
# then every patched kernel the tests boot, build in the background from the
# start (tests/lib/prebuild-kernels.sh; tests/README.md): lane B starts once
# the default kernel is there, lane A once every kernel is.
EXEC_TRACE = $(BUILD)/exec-trace
# The machine image's own pyenv Python and rustup toolchain are on PATH and get
# probed (the kernel's Kconfig runs rustc --version; a python3 lookup goes
# through pyenv's shims): allowed here, named in the issue as a debt (the
# kernel config should not depend on what is on the host's PATH).
EXEC_ALLOW = --allow-dir $(HOME)/.pyenv --allow-dir $(HOME)/.cargo --allow-dir $(HOME)/.rustup
STRACE_EXEC = strace -f --seccomp-bpf -qq -z -e trace=execve,execveat -e signal=none
NPROC := $(shell nproc 2>/dev/null || echo 2)
test: deps
	$(MAKE) -j$(NPROC) all bench-build
	$(MAKE) check-layers
	$(MAKE) check-function-length
	rm -f $(EXEC_TRACE)*.log
	rm -f $(BUILD)/prebuild.done
	[ -n "$$FW_KERNEL" ] || ($(STRACE_EXEC) -o $(EXEC_TRACE)-kernel.log sh tests/lib/prebuild-kernels.sh \
		$(BUILD)/foliowatch-collect $(BUILD)/prebuild.done >$(BUILD)/kernel-prebuild.log 2>&1 &)
	$(ASAN_MAKE) -j$(NPROC) all
	BUILD=$(BUILD) LANE_A="$(LANE_A_TESTS)" LANE_A_TREE="$(LANE_A_TREE_TESTS)" LANE_B="$(LANE_B_TESTS)" \
		LANE_Q_BUILD=$(ASAN_BUILD) LANE_Q="$(ASAN_UNIT_BIN) $(filter-out $(PLAIN_QUICK_TESTS) $(PLAIN_SKIP_ASAN),$(QUICK_TESTS))" \
		LANE_QP="$(PLAIN_ONLY_TESTS)" \
		LANE_LAST="$(LANE_LAST_TESTS)" EXEC_WATCH=$(EXEC_WATCH) \
		PREBUILD_DONE=$(BUILD)/prebuild.done PREBUILD_LOG=$(BUILD)/kernel-prebuild.log \
		TRACE_DIR=$(BUILD) sh tests/lib/test-lanes.sh
	/usr/bin/python3 ci/check-exec-deps.py $(EXEC_TRACE)*.log $(EXEC_ALLOW)
# Unit tests and the server's tests (no kernel) under ASan/UBSan, in a build dir of their own.
ASAN_BUILD = build/asan
ASAN_MAKE = $(MAKE) BUILD=$(ASAN_BUILD) SANITIZE=address,undefined OPT='-O1 -g'
ASAN_UNIT_BIN = $(patsubst $(BUILD)/%,$(ASAN_BUILD)/%,$(UNIT_BIN))
# make test runs the quick tests once, on the ASan build; these on the plain one
# (lane B runs them once its kernel tests are done): valgrind cannot run an ASan
# binary (t6300, t0420's memcheck); the fuzz targets carry their own sanitizers;
# and two whose ASan runs were the lane's longest for checks ASan adds nothing
# to: t2200 counts false alarms over 2,000 generated series (336 s under ASan),
# t0400 feeds every option to every subcommand, thousands of processes (394 s
# under ASan, 78 plain). t0420 runs on both.
PLAIN_QUICK_TESTS = $(wildcard tests/t2200-decided.sh tests/t0400-cli-help.sh)
# t6000 and t6300 would only skip under ASan: not queued there
PLAIN_SKIP_ASAN = $(wildcard tests/t6000-fuzz-smoke.sh tests/t6300-server-valgrind.sh)
PLAIN_ONLY_TESTS = $(wildcard tests/t0420-run-no-kernel.sh) $(PLAIN_SKIP_ASAN) $(PLAIN_QUICK_TESTS)
test-asan:
	$(ASAN_MAKE) -j$(NPROC) all
	$(ASAN_MAKE) test-quick

# Fuzz targets: libFuzzer with clang; the libraries are rebuilt with clang in build/fuzz.
FUZZ_SRC     := $(wildcard tests/fuzz/fuzz-*.c)
FUZZ_BIN     := $(patsubst tests/fuzz/%.c,build/fuzz/%,$(FUZZ_SRC))
FUZZ_SECONDS ?= 20
FUZZ_MAKE     = $(MAKE) BUILD=build/fuzz CC=clang WERROR=0 SANITIZE=address,undefined \
		OPT='-O1 -g -fsanitize=fuzzer-no-link'
fuzz:
	$(FUZZ_MAKE) build/fuzz/libfw.a build/fuzz/libfwanalysis.a build/fuzz/libfwserver.a build/fuzz/libfwcollect.a
	$(FUZZ_MAKE) $(FUZZ_BIN)
build/fuzz/fuzz-%: tests/fuzz/fuzz-%.c build/fuzz/libfw.a build/fuzz/libfwanalysis.a build/fuzz/libfwserver.a build/fuzz/libfwcollect.a
	clang $(INC_all) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< build/fuzz/libfwserver.a build/fuzz/libfwcollect.a build/fuzz/libfwanalysis.a build/fuzz/libfw.a $(LIBS)
fuzz-smoke: fuzz
	sh tests/fuzz/smoke.sh $(FUZZ_SECONDS) $(FUZZ_BIN)

# Benchmarks (not tests): tests/bench/bench-*.c are programs run in turn,
# tests/bench/*.sh scripts (they may use the other programs built here, e.g. hello).
BENCH_BIN := $(patsubst tests/bench/%.c,$(BUILD)/bench/%,$(wildcard tests/bench/*.c))
$(BUILD)/bench/%: tests/bench/%.c $(BUILD)/libfwserver.a $(BUILD)/libfwanalysis.a $(BUILD)/libfw.a
	@mkdir -p $(dir $@)
	$(call quiet,CC,$<)$(CC) $(INC_server) $(ALL_CFLAGS) -MMD -MP -o $@ $< $(BUILD)/libfwserver.a $(BUILD)/libfwanalysis.a $(BUILD)/libfw.a $(LDFLAGS) $(LIBS)
bench-build: $(BENCH_BIN)
bench: all $(BENCH_BIN)
	@for b in $(filter $(BUILD)/bench/bench-%,$(BENCH_BIN)); do echo "== $$b"; $$b || exit 1; done
	@for s in $(wildcard tests/bench/*.sh); do echo "== $$s"; bash $$s || exit 1; done

demo: deps all
	sh kernel/demo.sh

clean:
	rm -rf $(BUILD)

# Dependency files written by -MMD, named from the object lists (no `find` at parse time).
DEP_FILES := $(patsubst %.o,%.d,$(LIB_OBJ) $(ANALYSIS_OBJ) $(SERVER_OBJ) $(COLLECT_OBJ) \
	$(BUILD)/obj/server/main.o $(BUILD)/obj/collector/main.o) \
	$(addsuffix .d,$(UNIT_BIN) $(BENCH_BIN))
-include $(DEP_FILES)
