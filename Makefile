# clawmd: one Makefile for the library, the command, the tests and the benchmarks.
#
#   make            build/clawmd and build/libclawmd.a
#   make demo       compose a demo group from container/ and skills/ and show it
#   make check      every test, a -Werror developer build, the whole suite
#                   again under ASan+UBSan, and the fuzzers for a few seconds
#   make test       every test, once, against build/
#   make bench      the speed figures (ratios printed side by side)
#   make e2e        render against the real agent CLIs, in a container engine
#                   (npm, needs root; doc/e2e.md), then make e2e-fresh
#   make e2e-fresh  the README's "From nothing" block in fresh Debian 12
#                   containers, as root and as a user with sudo (needs root)
#   make install    PREFIX=/usr/local DESTDIR= (nothing is baked at build time)
#   make deb        the Debian packages clawmd and clawmd-dev, in build/deb/
#   V=1             show the compiler's command lines (else "  CC lib/x.c";
#                   make -s shows none)
#
# Dependencies come through pkg-config; when one is missing, the build first
# runs scripts/install-deps.sh, which installs the Debian packages (with
# INSTALL_DEPS=no it only names them and the build stops: what the npm
# install's build from source passes, which never installs system packages).

# make splits its file names at spaces: a clone whose path has one cannot
# be built (say so, rather than fail on a name cut in two).
ifneq ($(words $(CURDIR)),1)
$(error the clone's path '$(CURDIR)' has a space, which make cannot build in: clone it into a path without one)
endif

CC       ?= cc
OBJCOPY  ?= objcopy
# -fPIC: the Node addon (bindings/node/node.mk) links the same objects as
# the programs, so a build compiles lib/ once; without semantic
# interposition (nothing is interposed: the programs are PIE, the addon
# exports two symbols) the code is what -fPIE gives.
CFLAGS   ?= -O2 -g -fPIC -fno-semantic-interposition
BUILD    ?= build
PKGS      = libgit2 yaml-0.1 libcjson md4c

# (pkg-config itself may be missing: a fresh machine; install-deps.sh brings it)
DEPS_OK := $(shell command -v pkg-config >/dev/null && pkg-config --exists $(PKGS) && echo yes)
ifneq ($(DEPS_OK),yes)
DEPS_OK := $(shell scripts/install-deps.sh $(if $(filter no,$(INSTALL_DEPS)),--check) build >&2 && echo yes)
endif

# The program links libc and nothing else, because every shared library it
# links is loaded at every start, used or not, and the per-spawn no-op
# compose uses none of them:
#  - libgit2 is loaded with dlopen() only when a git feature is used (linking
#    it costs ~2 ms of dynamic loading per process); lib/sys/git.c.
#  - cJSON and md4c: Debian ships no static library for either, so
#    lib/sys/dlload.c dlopen()s each the first time one of its functions is
#    called (container.json changed, --json output, render, check).
#  - libyaml: Debian ships libyaml.a, so it is linked statically: no loading
#    at all, and its pages are only touched when frontmatter is parsed.
#    Without libyaml.a it is linked as a shared library.
# We compile against their headers and record their sonames.
soname = $(shell objdump -p $(shell pkg-config --variable=libdir $(1))/$(2) 2>/dev/null | awk '/SONAME/ {print $$2}')
GIT2_SONAME  := $(call soname,libgit2,libgit2.so)
CJSON_SONAME := $(call soname,libcjson,libcjson.so)
MD4C_SONAME  := $(call soname,md4c,libmd4c.so)
YAML_STATIC  := $(wildcard $(shell pkg-config --variable=libdir yaml-0.1)/libyaml.a)
DEP_CFLAGS  := $(shell pkg-config --cflags $(PKGS))
DEP_LIBS    := $(if $(YAML_STATIC),$(YAML_STATIC),$(shell pkg-config --libs yaml-0.1)) -ldl

WARN      = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wno-unused-parameter -Wno-missing-field-initializers -Wvla -Wformat=2
ifdef DEVELOPER
WARN     += -Werror -Wconversion -Wno-sign-conversion
endif
# Not added to CFLAGS: a CFLAGS given on the command line (make check's
# CFLAGS='-O1 -g') would silently drop them.
ifdef SANITIZE
SAN_CFLAGS  = -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_LDFLAGS = -fsanitize=$(SANITIZE) $(SAN_STATIC)
# With gcc, the programs link the sanitizer runtimes statically: ASan and
# UBSan then share one copy of their common runtime, whose large zeroed
# tables LeakSanitizer scans at every exit.  Each sanitized process costs
# about a third less CPU (doc/development.md), and make check starts
# thousands.  A shared object (the Node addon) still takes the runtime from
# the process it is loaded into.  clang links its runtime statically anyway.
SAN_STATIC := $(if $(findstring clang,$(shell $(CC) --version 2>/dev/null)),,\
              $(if $(findstring address,$(SANITIZE)),-static-libasan) \
              $(if $(findstring undefined,$(SANITIZE)),-static-libubsan))
endif
# lib/base/banned.h is included before every file the Makefile compiles
# (lib/, cmd/, the addon, the tests, the bench): one rule for the tree.
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CPPFLAGS) $(CFLAGS) $(SAN_CFLAGS) -Ilib/include -Ilib \
             -include base/banned.h $(DEP_CFLAGS) \
             -DCLAWMD_GIT2_SONAME='"$(GIT2_SONAME)"' -DCLAWMD_CJSON_SONAME='"$(CJSON_SONAME)"' \
             -DCLAWMD_MD4C_SONAME='"$(MD4C_SONAME)"' -MMD -MP
ALL_LDFLAGS = -Wl,--as-needed $(LDFLAGS) $(SAN_LDFLAGS)

LIB_SRC  := $(sort $(wildcard lib/*/*.c))
CMD_SRC  := $(filter-out cmd/front.c,$(sort $(wildcard cmd/*.c)))
UNIT_SRC := $(sort $(wildcard tests/unit/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
CMD_OBJ  := $(CMD_SRC:%.c=$(BUILD)/%.o)
UNITS    := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%.t)

# The build tree is laid out as an install is (scripts/install.mk):
#  - libexec/clawmd/clawmd, the full program, linked as described above;
#  - bin/clawmd, the front: the same objects plus cmd/front.o, which
#    replaces lib/sys/dl.o (no library loader), linked statically so that the
#    per-spawn no-op compose pays no dynamic loader either; every other run
#    it hands over to ../libexec/clawmd/clawmd (cmd/front.c).  It is linked
#    dynamically under sanitizers, which need the loader, and when there is
#    no libyaml.a.  It is linked at a fixed address (-no-pie): a static
#    PIE relocates its own data at every start, and the pages those
#    relocations write are copied, one page fault each, which cost a
#    no-op 13% of its run (make bench: copy mode 1.15x a trivial program
#    as a static PIE, 1.01-1.05x at a fixed address).  The front parses no
#    byte an agent wrote (the kept layout and the record are clawmd's own,
#    under ROOT/.clawmd; of the group it takes stats, and the names in a
#    directory whose listing the record holds, each matched by its suffix
#    and hashed, nothing more: lib/fs/inputs.c look_names), so address-space
#    randomization guards little there; the full program, which parses
#    what agents write, stays a PIE;
#  - clawmd, a symlink to bin/clawmd: what the tests, demo and bench run.
FULL     := $(BUILD)/libexec/clawmd/clawmd
FRONT    := $(BUILD)/bin/clawmd
FRONT_STATIC := $(if $(SANITIZE),,$(if $(YAML_STATIC),-static -no-pie))

# Quiet by default: one "  CC file" line a step, none under make -s, the
# whole command line with V=1.  $(Q)$(call say,WHAT,FILE) starts a recipe.
ifeq ($(V),1)
Q   =
say =
else
Q   = @
ifneq ($(findstring s,$(firstword -$(MAKEFLAGS))),)
say =
else
say = printf '  %-5s %s\n' '$(1)' '$(2)';
endif
endif

all: $(BUILD)/clawmd $(FULL) $(BUILD)/libclawmd.a

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(Q)$(call say,CC,$<)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# Two archives of the same objects:
#  - libclawmd.a, what is installed and what a host (the Node addon, the
#    bench) links: one relocatable object (ld -r over lib/) in which every
#    global that the public headers do not name is made local, so that a
#    host sees the API and nothing else (no private clawmd_ name, no cJSON
#    or md4c forwarder of lib/sys/dlload.c) and cannot collide with them.
#    The names kept are those of the preprocessed public header, comments
#    gone (public.syms); tests/unit/symbols.c reads the symbol tables.
#  - lib/libclawmd-private.a, every object with every name: the programs
#    (the front replaces lib/sys/dl.o at link time, cmd/front.c) and the
#    unit tests, which test private functions, link it.  cmd/ calls only
#    the public API; tests/unit/symbols.c checks that of its objects too.
LIB_PRIV := $(BUILD)/lib/libclawmd-private.a
$(LIB_PRIV): $(LIB_OBJ)
	@rm -f $@
	$(Q)$(call say,AR,$@)ar rcs $@ $^

$(BUILD)/lib/public.syms: lib/include/clawmd.h $(wildcard lib/include/clawmd/*.h)
	@mkdir -p $(@D)
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE -E -P -Ilib/include lib/include/clawmd.h \
		| grep -oE '\bclawmd_[A-Za-z0-9_]+' | sort -u >$@.tmp
	@# Empty, objcopy would keep every global: fail rather than export all.
	@test -s $@.tmp && mv $@.tmp $@

$(BUILD)/libclawmd.a: $(LIB_OBJ) $(BUILD)/lib/public.syms
	@rm -f $@
	$(Q)$(call say,AR,$@)$(LD) -r -o $(BUILD)/lib/clawmd.o $(LIB_OBJ) && \
		$(OBJCOPY) --keep-global-symbols=$(BUILD)/lib/public.syms $(BUILD)/lib/clawmd.o && \
		ar rcs $@ $(BUILD)/lib/clawmd.o

$(FULL): $(CMD_OBJ) $(LIB_PRIV)
	@mkdir -p $(@D)
	$(Q)$(call say,LINK,$@)$(CC) $(ALL_LDFLAGS) -o $@ $(CMD_OBJ) $(LIB_PRIV) $(DEP_LIBS)

$(FRONT): $(BUILD)/cmd/front.o $(CMD_OBJ) $(LIB_PRIV)
	@mkdir -p $(@D)
	$(Q)$(call say,LINK,$@)$(CC) $(ALL_LDFLAGS) $(FRONT_STATIC) -o $@ $(BUILD)/cmd/front.o $(CMD_OBJ) \
		$(LIB_PRIV) $(DEP_LIBS)

$(BUILD)/clawmd: $(FRONT)
	$(Q)ln -sfn bin/clawmd $@

$(BUILD)/tests/%.t: tests/unit/%.c $(LIB_PRIV) tests/tap.h tests/testutil.h tests/watchdir.h
	@mkdir -p $(@D)
	$(Q)$(call say,CC,$@)$(CC) $(ALL_CFLAGS) -Itests $(ALL_LDFLAGS) -o $@ $< $(LIB_PRIV) $(DEP_LIBS)

# A helper the shell tests use to act at the moment an inotify event comes.
TEST_HELPERS := $(BUILD)/tests/on-inotify
$(BUILD)/tests/on-inotify: tests/on-inotify.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $<

# A host's use of one group handle, for the shell tests (tests/handle-compose.c).
TEST_HELPERS += $(BUILD)/tests/handle-compose
$(BUILD)/tests/handle-compose: tests/handle-compose.c $(BUILD)/libclawmd.a
	@mkdir -p $(@D)
	$(Q)$(call say,CC,$@)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/libclawmd.a $(DEP_LIBS)

# The soak's driver and agents (tests/soak.c, make soak).
TEST_HELPERS += $(BUILD)/tests/soak
$(BUILD)/tests/soak: tests/soak.c
	@mkdir -p $(@D)
	$(Q)$(call say,CC,$@)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $<

# Under sanitizers, what tests/run-test.sh preloads for speed (tests/prefault.c);
# compiled without them: it runs before their runtime is set up.
ifdef SANITIZE
TEST_HELPERS += $(BUILD)/tests/prefault.so
$(BUILD)/tests/prefault.so: tests/prefault.c
	@mkdir -p $(@D)
	$(Q)$(call say,CC,$@)$(CC) -O2 -Wall -shared -fPIC -o $@ $<
endif

# --- tests ---------------------------------------------------------------
# tests/run-test.sh runs each one against the build directory its path
# names: BUILD/tests/NAME.t (a unit test) or BUILD/tests/tNN-NAME.sh (a link
# to the shell test), so one prove runs several builds' suites side by
# side; a test's stderr goes to BUILD/tests/log/, and tests/failures.sh
# names what failed.  Slow tests first, so that none starts last: the
# order is their measured CPU time (tests/run-test.sh records each one's,
# tests/profile.sh BUILD... lists them), the costliest first.
SH_TESTS  := $(sort $(wildcard tests/t[0-9]*.sh))
SLOW_FIRST = t31-migrate-crash t60-node t42-render-gemini t40-render-conformance \
             t45-read-hostile t16-compose-record t48-copy-sources t53-cli
suite      = $(foreach t,$(SLOW_FIRST),$(1)/tests/$(t).sh) \
             $(filter-out $(SLOW_FIRST:%=$(1)/tests/%.sh),$(SH_TESTS:%=$(1)/%)) \
             $(UNIT_SRC:tests/unit/%.c=$(1)/tests/%.t)
# make check runs both suites in one prove: the costliest files of either
# (S: the sanitizer build, P: $(BUILD)) first, in one order, so that the
# jobs finish together; then the rest of each suite.
CHECK_FIRST = S:t45-read-hostile S:t60-node S:t12-compose-safety S:t42-render-gemini \
              S:t31-migrate-crash S:t40-render-conformance S:t53-cli S:t16-compose-record \
              S:t50-check P:t31-migrate-crash P:t60-node S:t48-copy-sources P:t42-render-gemini \
              P:t40-render-conformance S:t17-compose-nanoclaw S:t55-sarif-multitool \
              P:t45-read-hostile S:t14-compose-crash S:t30-migrate
check_first = $(foreach t,$(CHECK_FIRST),$(if $(filter S:%,$(t)),build/san/tests/$(t:S:%=%),$(BUILD)/tests/$(t:P:%=%)).sh)
TEST_JOBS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); echo $$((n * 2)))
PROVE      = prove -j$(TEST_JOBS) --exec $(abspath tests/run-test.sh)
# To run one test by hand: make test-build, then
#   tests/run-test.sh build/tests/t10-compose.sh (its stderr: build/tests/log/),
# or with the environment the tests expect, prove -v tests/t10-compose.sh:
TEST_ENV   = CLAWMD=$(abspath $(BUILD)/clawmd) CLAWMD_TESTS=$(abspath tests) \
             CLAWMD_BUILD=$(abspath $(BUILD)) CLAWMD_SRC=$(abspath .)

$(BUILD)/tests/%.sh: tests/%.sh
	@mkdir -p $(@D)
	@ln -sfn $(abspath $<) $@

test-build: all $(UNITS) $(TEST_HELPERS) $(SH_TESTS:%=$(BUILD)/%)

test: test-deps
	@$(MAKE) --no-print-directory test-build
	@rm -rf $(BUILD)/tests/log
	@$(PROVE) $(call suite,$(BUILD)) || { tests/failures.sh $(BUILD); exit 1; }
	@echo "test: $$(sh tests/skips.sh $(BUILD))"

test-deps:
	@scripts/install-deps.sh test

# make check = the suite against build/ and the same suite built with
# sanitizers in build/san, the developer warnings (DEVELOPER=1: -Werror
# -Wconversion, warnings only, the same code) over lib/ and cmd/, then the
# fuzzers for a short run when clang can build them.  A build/ compiled
# from scratch is compiled with the developer warnings; over objects
# compiled before without them, build/dev compiles everything again.
# The builds (and the fuzzers) build side by side in one make -j, and both
# suites run in one prove -j; on success it prints a dozen lines.
# The sanitizer build is compiled -fPIC too, so that its Node addon links
# its objects (bindings/node/node.mk) rather than a second compile of lib/.
CHECK_SAN = BUILD=build/san SANITIZE=address,undefined CFLAGS='-O1 -g -fPIC'
CHECK_DEV = $(if $(wildcard $(BUILD)/libclawmd.a),build/dev,$(BUILD))
comma    := ,
CHECK_SUITE = $(check_first) $(filter-out $(check_first),$(call suite,build/san) $(call suite,$(BUILD)))
check: test-deps
	@mkdir -p $(BUILD) && date +%s >$(BUILD)/.check-start
	@echo "check: building $(if $(filter build/dev,$(CHECK_DEV)),$(BUILD) (tests)$(comma) build/dev (DEVELOPER=1),$(BUILD) (tests; DEVELOPER=1)), build/san (ASan+UBSan)$(if $(wildcard tests/fuzz/Makefile.inc), and the fuzzers)"
	@$(MAKE) --no-print-directory -s -j$(TEST_JOBS) CHECK_DEV=$(CHECK_DEV) check-build-$(BUILD) \
		$(if $(filter build/dev,$(CHECK_DEV)),check-build-dev) check-build-san \
		$(if $(wildcard tests/fuzz/Makefile.inc),fuzz-build)
	@echo "check: built; the suite against $(BUILD) and build/san: $(words $(CHECK_SUITE)) test files, $(TEST_JOBS) jobs"
	@rm -rf $(BUILD)/tests/log build/san/tests/log
	@: >$(BUILD)/tests/progress
	@CLAWMD_PROGRESS=$(abspath $(BUILD)/tests/progress) CLAWMD_PROGRESS_TOTAL=$(words $(CHECK_SUITE)) \
		CLAWMD_PROGRESS_TTY=$$(test -t 2 && echo /dev/tty) $(PROVE) -Q $(CHECK_SUITE) || { tests/failures.sh build/san $(BUILD); exit 1; }
	@if [ -f tests/fuzz/Makefile.inc ]; then echo "check: the fuzzers, a few seconds each"; \
		{ $(MAKE) --no-print-directory -s fuzz-smoke 2>&1; echo $$? >$(BUILD)/tests/log/fuzz.status; } | \
			tee $(BUILD)/tests/log/fuzz.log; exit $$(cat $(BUILD)/tests/log/fuzz.status); fi
	@# The closing line names every skip, its test file and its reason
	@# (tests/skips.sh): a skip is never silent.
	@s=$$(cat $(BUILD)/.check-start 2>/dev/null); rm -f $(BUILD)/.check-start; \
	echo "check: all passed: $(words $(CHECK_SUITE)) test files (two builds: $(BUILD) and build/san" \
	"with ASan+UBSan), the developer warnings$(if $(wildcard tests/fuzz/Makefile.inc),$(comma) the fuzzers)" \
	"$${s:+in $$(( $$(date +%s) - s )) s}; $$(sh tests/skips.sh build/san $(BUILD))"

check-build-$(BUILD):
	@$(if $(filter $(BUILD),$(CHECK_DEV)),+$(MAKE) --no-print-directory DEVELOPER=1 all)
	@+$(MAKE) --no-print-directory test-build
check-build-dev:
	@+$(MAKE) --no-print-directory BUILD=build/dev DEVELOPER=1 all
check-build-san:
	@+$(MAKE) --no-print-directory $(CHECK_SAN) test-build

-include tests/fuzz/Makefile.inc

# --- demo, bench, install ------------------------------------------------
demo:
	@echo "demo: building $(BUILD)/clawmd (make -s all; a first build takes a few seconds)"
	@$(MAKE) --no-print-directory -s all
	@scripts/demo.sh $(abspath $(BUILD)/clawmd)

# bench/compose.c times clawmd_compose() in-process, linked as a host would.
$(BUILD)/bench/compose: bench/compose.c $(BUILD)/libclawmd.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/libclawmd.a $(DEP_LIBS)

# bench/floor.c replays a traced no-op's system calls alone: its floor.
$(BUILD)/bench/floor: bench/floor.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $<

# PEER=DIR: a nanoclaw checkout (after npm install) whose own composer the
# Node figures time beside clawmd's (scripts/bench-node.sh; doc/speed.md).
bench: all $(BUILD)/bench/compose $(BUILD)/bench/floor
	@scripts/install-deps.sh bench
	@PEER='$(PEER)' scripts/bench.sh $(abspath $(BUILD))

-include scripts/install.mk
# make node: the Node package (bindings/node/node.mk).
-include bindings/node/node.mk

# The Debian packages (debian/), built from what git tracks, in build/deb/.
deb:
	@scripts/deb.sh

# --- end to end (not in make check: it downloads the CLIs from npm and ---
# starts a container engine as root) -----------------------------------------
# The real CLIs against render, each run in a container of a private dockerd
# (the unshare -m emulation where none can start); see doc/e2e.md.
# E2E_CASES="rules-order ..." runs only those cases.  e2e-quick: one case
# per runtime, the newest release of each (what a release runs first).
e2e: all
	CLAWMD=$(abspath $(BUILD)/clawmd) sh scripts/e2e/run.sh $(E2E_CASES)
	$(if $(E2E_CASES),,sh scripts/e2e/fresh.sh)
	$(if $(E2E_CASES),,@$(MAKE) --no-print-directory soak)
# The README's "From nothing" block, literally, in fresh Debian 12 containers,
# as root (then make deb) and as a user with sudo: the committed HEAD
# (scripts/e2e/fresh.sh; FRESH_RUNS="root" or "user" for one).
e2e-fresh:
	sh scripts/e2e/fresh.sh $(FRESH_RUNS)
e2e-quick: all
	CLAWMD=$(abspath $(BUILD)/clawmd) E2E_QUICK=1 sh scripts/e2e/run.sh $(E2E_CASES)
.PHONY: e2e e2e-quick e2e-fresh

# make soak: composes against hostile agents writing all the while, 1 in 50
# killed, every line the agents wrote looked for (scripts/soak.sh,
# doc/security.md): SOAK_COMPOSES (100000) or SOAK_SECONDS (1200), whichever
# ends first; then a short pass of the sanitizer build (SOAK_SAN_SECONDS,
# 180).  Not in make check: it takes minutes.
SOAK_SAN_SECONDS ?= 180
soak: all $(BUILD)/tests/soak
	@sh scripts/soak.sh $(abspath $(BUILD)/clawmd) $(abspath $(BUILD)/tests/soak) soak
	@$(MAKE) --no-print-directory $(CHECK_SAN) all build/san/tests/soak
	@SOAK_SECONDS=$(SOAK_SAN_SECONDS) ASAN_OPTIONS=detect_leaks=1 \
		sh scripts/soak.sh $(abspath build/san/clawmd) $(abspath build/san/tests/soak) soak-asan
.PHONY: soak

# The clawmd image, from a local Debian root file system (no registry), in a
# private dockerd as make e2e starts it (root); see doc/kubernetes.md.
image: all
	sh scripts/image.sh $(BUILD)
.PHONY: image

clean:
	rm -rf $(BUILD) demo

.PHONY: all test test-build test-deps check check-build-$(BUILD) check-build-dev check-build-san \
	demo bench deb clean
-include $(LIB_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(BUILD)/cmd/front.d
