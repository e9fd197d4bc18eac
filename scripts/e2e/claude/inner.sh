#!/bin/sh
# Runs inside the container made by container.sh, in the case's cwd: one
# headless Claude Code session with a fresh HOME, its output in OUT (run.out, run.err, run.rc).
#
#   inner.sh OUT -- CLAUDE [ARGS...]
#
# Environment (set by run.sh): E2E_PORT, E2E_TIMEOUT, E2E_PROMPT, and
# optionally E2E_CLAUDE_JSON, a ~/.claude.json to start from.
out=$1
shift 2
home=/e2e-home
# fresh: the container root is a new tmpfs, unless the case binds a HOME here
[ -d "$home" ] || mkdir -p "$home"
if [ -n "${E2E_CLAUDE_JSON:-}" ]; then
	cp "$E2E_CLAUDE_JSON" "$home/.claude.json"
fi
env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$home" TERM=dumb LANG=C.UTF-8 \
	ANTHROPIC_BASE_URL="http://127.0.0.1:$E2E_PORT" ANTHROPIC_API_KEY=dummy \
	CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
	timeout -k 5 "$E2E_TIMEOUT" "$@" -p "$E2E_PROMPT" \
	</dev/null >"$out/run.out" 2>"$out/run.err"
echo $? >"$out/run.rc"
exit 0
