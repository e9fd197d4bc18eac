#!/bin/sh
# Runs inside the container in the case's cwd: one run of the Cursor SDK's
# local agent (run.mjs, through install.sh's launcher) with a fresh HOME,
# its output in OUT.
#
#   inner.sh OUT -- CURSOR [ARGS...]
#
# ARGS (a case's run_args) go to run.mjs (--setting-sources LIST).
# Environment (set by run.sh): E2E_PORT, E2E_TIMEOUT, E2E_PROMPT.  The
# backend is the loopback mock (CURSOR_BACKEND_URL), the API key a dummy.
out=$1
shift 2
bin=$1
shift
home=/e2e-home
mkdir -p "$home"
env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$home" TERM=dumb LANG=C.UTF-8 NO_COLOR=1 \
	CURSOR_BACKEND_URL="http://127.0.0.1:$E2E_PORT" CURSOR_API_KEY=key_e2e \
	timeout -k 5 "$E2E_TIMEOUT" "$bin" "$E2E_PROMPT" "$@" \
	</dev/null >"$out/run.out" 2>"$out/run.err"
echo $? >"$out/run.rc"
exit 0
