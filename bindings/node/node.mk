# node.mk - the Node package (bindings/node), included by the Makefile.
#
#   make node          the package, staged in build/node/package: the N-API
#                      addon (prebuilds/linux-x64/clawmd.node), the command
#                      (bin/clawmd and libexec/clawmd/clawmd), the JS, the
#                      declarations, and the C sources for a build on install
#   make node-pack     npm pack of it: build/node/clawmd-VERSION.tgz
#   make node-test     node --test bindings/node/test/ against the staged package
#   make node-faults   tests/t100-node-faults.sh failing every N-API call
#                      of its script in turn (the suite fails every 32nd);
#                      minutes: not part of make check
#   make node-valgrind the same tests under valgrind's memcheck, each test
#                      file's node and the clawmd commands it starts too;
#                      Node's own noise suppressed (bindings/node/valgrind.supp).
#                      Slow (minutes): not part of make check
#
# The addon is C against node_api.h only (no node-gyp), linked with the
# build's static library: the default CFLAGS compile it -fPIC.  CFLAGS
# without -fPIC (a packager's) compile the library again, -fPIC, in its own
# build directory, since a shared object cannot take PIE code.
# cJSON, md4c and libgit2 are dlopen()ed by the library as in the program;
# libyaml.a goes into the addon.  Only the two N-API entry points are
# exported: nothing of the library or libyaml can clash with the host's.

NODE        ?= node
NODE_INC    ?= $(firstword $(wildcard $(dir $(shell $(NODE) -p process.execPath 2>/dev/null))../include/node) \
                 $(wildcard /usr/include/node /usr/local/include/node))
NODE_PIC    := $(if $(filter -fPIC,$(CFLAGS)),$(BUILD),$(BUILD)/pic)
NODE_DIR    := $(BUILD)/node
NODE_ADDON  := $(NODE_DIR)/clawmd.node
NODE_PKG    := $(NODE_DIR)/package
NODE_SRC    := bindings/node
# The addon's sources: one file per concern (bindings/node/src/addon.h).
NODE_CSRC_ADDON := $(sort $(wildcard $(NODE_SRC)/src/*.c)) $(NODE_SRC)/src/addon.h
NODE_JS     := $(addprefix $(NODE_SRC)/,package.json index.js index.mjs index.d.ts nanoclaw.js \
                 nanoclaw.mjs nanoclaw.d.ts install.js README.md)
# What a build from source inside the installed package needs.
NODE_CSRC   := Makefile LICENSE $(LIB_SRC) $(wildcard lib/*/*.h lib/include/*.h lib/include/clawmd/*.h) \
               $(CMD_SRC) cmd/front.c cmd/cmd.h scripts/install-deps.sh \
               $(NODE_SRC)/node.mk $(NODE_CSRC_ADDON) $(NODE_SRC)/src/exports.map

# The library again, -fPIC, in its own build directory (SANITIZE passes down).
ifneq ($(NODE_PIC),$(BUILD))
$(NODE_PIC)/libclawmd.a: FORCE
	@$(MAKE) --no-print-directory BUILD=$(NODE_PIC) CFLAGS='$(CFLAGS) -fPIC' $@
endif

NODE_LINK    = $(CC) $(ALL_CFLAGS) -fPIC -I$(NODE_INC) -shared -o $@ $(1) $(filter %.c,$(NODE_CSRC_ADDON)) \
		$(NODE_PIC)/libclawmd.a \
		$(DEP_LIBS) -lpthread $(filter-out -static-lib%,$(ALL_LDFLAGS)) -Wl,--exclude-libs,ALL \
		-Wl,--version-script=$(NODE_SRC)/src/exports.map

$(NODE_ADDON): $(NODE_CSRC_ADDON) $(NODE_PIC)/libclawmd.a $(NODE_SRC)/src/exports.map
	@test -n "$(NODE_INC)" || { echo "make node: no node_api.h (Node's headers) found; set NODE_INC" >&2; exit 1; }
	@mkdir -p $(@D)
	$(call NODE_LINK)

node-addon: $(NODE_ADDON)

# "Another addon" for the tests (bindings/node/test/hostile.test.js): one
# that wraps objects with pointers of its own, which no clawmd method may
# take for a handle.  Not part of the package.
$(NODE_DIR)/foreign.node: $(NODE_SRC)/test/foreign.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -fPIC -I$(NODE_INC) -shared -o $@ $< $(filter-out -static-lib%,$(ALL_LDFLAGS))

# The addon with every N-API call it makes counted and, from the Nth on
# (or only the Nth), failed as in an environment being torn down
# (bindings/node/test/napi-faults.h says how): tests/t100-node-faults.sh
# loads it with CLAWMD_NODE_ADDON.  Not part of the package.
$(NODE_DIR)/faults.node: $(NODE_CSRC_ADDON) $(NODE_SRC)/test/napi-faults.h $(NODE_PIC)/libclawmd.a \
		$(NODE_SRC)/src/exports.map
	@mkdir -p $(@D)
	$(call NODE_LINK,-include $(NODE_SRC)/test/napi-faults.h)

node: $(NODE_ADDON) $(FULL) $(FRONT) $(NODE_JS) $(NODE_CSRC)
	rm -rf $(NODE_PKG) && mkdir -p $(NODE_PKG)/prebuilds/linux-x64 $(NODE_PKG)/bin \
		$(NODE_PKG)/libexec/clawmd
	cp $(NODE_JS) LICENSE $(NODE_PKG)/
	cp $(NODE_ADDON) $(NODE_PKG)/prebuilds/linux-x64/clawmd.node
	cp $(FRONT) $(NODE_PKG)/bin/clawmd
	cp $(FULL) $(NODE_PKG)/libexec/clawmd/clawmd
	tar cf - $(NODE_CSRC) | (mkdir -p $(NODE_PKG)/src && cd $(NODE_PKG)/src && tar xf -)

node-pack: node
	cd $(NODE_DIR) && npm pack --silent ./package

node-test: node
	CLAWMD_NODE_PKG=$(abspath $(NODE_PKG)) $(NODE) --test $(NODE_SRC)/test/

# npm, npx, git, sh and flock are not traced, nor what they start (so the
# one `npx clawmd` of package.test.js runs natively); the clawmd commands the
# tests start themselves are traced.
NODE_VG_LOG ?= $(NODE_DIR)/valgrind
node-valgrind: node
	rm -rf $(NODE_VG_LOG) && mkdir -p $(NODE_VG_LOG)
	CLAWMD_NODE_PKG=$(abspath $(NODE_PKG)) valgrind --trace-children=yes \
		--trace-children-skip='*/npm,*/npx,*/git,*/sh,*/flock' \
		--suppressions=$(abspath $(NODE_SRC)/valgrind.supp) --leak-check=full \
		--show-leak-kinds=definite,possible --errors-for-leak-kinds=definite,possible \
		--error-exitcode=99 --log-file=$(abspath $(NODE_VG_LOG))/%p.log \
		$(NODE) --test --test-concurrency=1 $(NODE_SRC)/test/
	@scripts/valgrind-summary.sh $(NODE_VG_LOG)

node-faults: node $(NODE_DIR)/faults.node
	CLAWMD_NAPI_FAULTS_ALL=1 CLAWMD_BUILD=$(abspath $(BUILD)) CLAWMD_SRC=$(abspath .) \
		sh tests/t100-node-faults.sh

FORCE:
.PHONY: node node-addon node-pack node-test node-faults node-valgrind FORCE

# test-build (so make test and make check, in each of its builds) stages the package
# for tests/t60-node.sh wherever Node's headers are; that test says why it
# skips where they or Node are not.
ifneq ($(NODE_INC),)
test-build: node $(NODE_DIR)/foreign.node $(NODE_DIR)/faults.node
# make bench times the package from Node (scripts/bench-node.sh), which says
# why it skips where Node or the staged package is missing.
bench: node
endif
