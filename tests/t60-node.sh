#!/bin/sh
# The Node package (bindings/node): its own tests, bindings/node/test/*.test.js,
# run by node --test against the package make node staged in
# $CLAWMD_BUILD/node/package, reported as TAP.  Skipped, saying why, where
# Node or Node's headers are missing.  A package built with sanitizers (make
# check's second pass) runs under them: node is started with libasan (and
# libubsan) preloaded, and leak detection off (Node's own allocations live
# until exit).
: "${CLAWMD_BUILD:?run through make check}"
PKG=$CLAWMD_BUILD/node/package
ADDON=$PKG/prebuilds/linux-x64/clawmd.node
if ! command -v node >/dev/null 2>&1; then
	echo "1..0 # SKIP no node installed: the Node package is not tested"
	exit 0
fi
if [ ! -f "$ADDON" ]; then
	echo "1..0 # SKIP no Node package in $CLAWMD_BUILD/node (make node needs Node's headers, node_api.h)"
	exit 0
fi
if nm -D "$ADDON" 2>/dev/null | grep -q __asan_init; then
	cc=${CC:-cc}
	# Both paths asked before LD_PRELOAD names libasan: a compiler run
	# under it prints LeakSanitizer's report of the compiler into the log.
	ubsan=
	if nm -D "$ADDON" | grep -q __ubsan; then
		ubsan=" $($cc -print-file-name=libubsan.so)"
	fi
	LD_PRELOAD=$($cc -print-file-name=libasan.so)$ubsan
	export LD_PRELOAD ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
fi
export CLAWMD_NODE_PKG=$PKG
exec node --test --test-reporter=tap "$CLAWMD_SRC"/bindings/node/test/*.test.js
