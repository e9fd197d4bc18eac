# clawmd: one Makefile for the library, the command, the tests and the benchmarks.
#
#   make            build/clawmd and build/libclawmd.a
#   make demo       compose a demo group from container/ and skills/ and show it
#   make check      every test, a -Werror developer build, then the whole suite
#                   again under ASan+UBSan
#   make bench      the speed figures (ratios printed side by side)
#   make e2e        render against real Claude Code releases (npm, needs root)
#   make install    PREFIX=/usr/local DESTDIR= (nothing is baked at build time)
#   make deb        the Debian packages clawmd and clawmd-dev, in build/deb/
#
# Dependencies come through pkg-config; when one is missing, the build first
# runs scripts/install-deps.sh, which installs the Debian packages.

CC       ?= cc
CFLAGS   ?= -O2 -g
BUILD    ?= build
PKGS      = libgit2 yaml-0.1 libcjson md4c

DEPS_OK := $(shell pkg-config --exists $(PKGS) && echo yes)
ifneq ($(DEPS_OK),yes)
DEPS_OK := $(shell scripts/install-deps.sh build >&2 && echo yes)
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
SAN_LDFLAGS = -fsanitize=$(SANITIZE)
endif
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CPPFLAGS) $(CFLAGS) $(SAN_CFLAGS) -Ilib/include -Ilib $(DEP_CFLAGS) \
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
#    no libyaml.a;
#  - clawmd, a symlink to bin/clawmd: what the tests, demo and bench run.
FULL     := $(BUILD)/libexec/clawmd/clawmd
FRONT    := $(BUILD)/bin/clawmd
FRONT_STATIC := $(if $(SANITIZE),,$(if $(YAML_STATIC),-static-pie))

all: $(BUILD)/clawmd $(FULL) $(BUILD)/libclawmd.a

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/libclawmd.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(FULL): $(CMD_OBJ) $(BUILD)/libclawmd.a
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) -o $@ $(CMD_OBJ) $(BUILD)/libclawmd.a $(DEP_LIBS)

$(FRONT): $(BUILD)/cmd/front.o $(CMD_OBJ) $(BUILD)/libclawmd.a
	@mkdir -p $(@D)
	$(CC) $(ALL_LDFLAGS) $(FRONT_STATIC) -o $@ $(BUILD)/cmd/front.o $(CMD_OBJ) \
		$(BUILD)/libclawmd.a $(DEP_LIBS)

$(BUILD)/clawmd: $(FRONT)
	ln -sfn bin/clawmd $@

$(BUILD)/tests/%.t: tests/unit/%.c $(BUILD)/libclawmd.a tests/tap.h tests/testutil.h
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Itests $(ALL_LDFLAGS) -o $@ $< $(BUILD)/libclawmd.a $(DEP_LIBS)

# A helper the shell tests use to act at the moment an inotify event comes.
TEST_HELPERS := $(BUILD)/tests/on-inotify
$(BUILD)/tests/on-inotify: tests/on-inotify.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $<

# --- tests ---------------------------------------------------------------
# The shell tests find the binary through $CLAWMD; unit tests are binaries.
TEST_ENV = CLAWMD=$(abspath $(BUILD)/clawmd) CLAWMD_TESTS=$(abspath tests) \
           CLAWMD_BUILD=$(abspath $(BUILD)) CLAWMD_SRC=$(abspath .)

test: all $(UNITS) $(TEST_HELPERS) test-deps
	$(TEST_ENV) prove -j2 $(UNITS) tests/t[0-9]*.sh

test-deps:
	@scripts/install-deps.sh test

# make check = the suite, then the developer build (-Werror -Wconversion) in
# its own build directory, then the same suite built with sanitizers in its
# own, then the fuzzers for a short run when clang can build them.
check: test
	$(MAKE) --no-print-directory BUILD=build/dev DEVELOPER=1 all
	$(MAKE) --no-print-directory BUILD=build/san SANITIZE=address,undefined \
		CFLAGS='-O1 -g' test
	@if [ -f tests/fuzz/Makefile.inc ]; then $(MAKE) --no-print-directory fuzz-smoke; fi

-include tests/fuzz/Makefile.inc

# --- demo, bench, install ------------------------------------------------
demo: all
	@scripts/demo.sh $(abspath $(BUILD)/clawmd)

# bench/compose.c times clawmd_compose() in-process, linked as a host would.
$(BUILD)/bench/compose: bench/compose.c $(BUILD)/libclawmd.a
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(BUILD)/libclawmd.a $(DEP_LIBS)

bench: all $(BUILD)/bench/compose
	@scripts/install-deps.sh bench
	@scripts/bench.sh $(abspath $(BUILD))

-include scripts/install.mk
# make node: the Node package (bindings/node/node.mk).
-include bindings/node/node.mk

# The Debian packages (debian/), built from what git tracks, in build/deb/.
deb:
	@scripts/deb.sh

# --- end to end (not in make check: it downloads Claude Code from npm) -----
# Real Claude Code releases against render; see doc/e2e.md.  E2E_CASES="rules-order ..." runs only those cases.
e2e: all
	CLAWMD=$(abspath $(BUILD)/clawmd) sh scripts/e2e/run.sh $(E2E_CASES)
.PHONY: e2e

clean:
	rm -rf $(BUILD) demo

.PHONY: all test test-deps check demo bench deb clean
-include $(LIB_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(BUILD)/cmd/front.d
