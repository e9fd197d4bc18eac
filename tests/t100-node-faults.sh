#!/bin/sh
# The Node addon survives the failure of any N-API call it makes, as when a
# worker is terminated, the process exits or V8 runs out of memory during a
# call: the fault build (BUILD/node/faults.node, made by make test-build
# from bindings/node/test/napi-faults.h) runs tests/napi-faults.js, every
# method of the binding, once to count its calls, then with the Nth call
# failed, and every one after it or only it, for each N the driver picks
# (tests/napi-faults.js says which and why).  No run may die by a signal,
# report a sanitizer error or hang; each ends or throws a JS error, and with
# one failure every call throws an Error or gives what it promises.
# Skipped, saying why, as tests/t60-node.sh is.  Under the sanitizer build
# node runs with libasan (and libubsan) preloaded, as in t60.
: "${CLAWMD_BUILD:?run through make check}"
PKG=$CLAWMD_BUILD/node/package
ADDON=$CLAWMD_BUILD/node/faults.node
if ! command -v node >/dev/null 2>&1; then
	echo "1..0 # SKIP no node installed: the Node addon is not tested"
	exit 0
fi
if [ ! -f "$ADDON" ] || [ ! -d "$PKG" ]; then
	echo "1..0 # SKIP no fault build in $CLAWMD_BUILD/node (make test-build needs Node's headers, node_api.h)"
	exit 0
fi
if nm -D "$ADDON" 2>/dev/null | grep -q __asan_init; then
	cc=${CC:-cc}
	# libasan first in the list, or it refuses to start (so without
	# tests/run-test.sh's prefault.so, as in t60)
	LD_PRELOAD=$($cc -print-file-name=libasan.so)
	if nm -D "$ADDON" | grep -q __ubsan; then
		LD_PRELOAD="$LD_PRELOAD $($cc -print-file-name=libubsan.so)"
	fi
	export LD_PRELOAD ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
fi
export CLAWMD_NODE_PKG=$PKG CLAWMD_NODE_ADDON=$ADDON
exec node "$CLAWMD_SRC/tests/napi-faults.js" drive
