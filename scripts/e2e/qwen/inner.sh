#!/bin/sh
# Runs inside the container in the case's cwd: one headless Qwen Code run
# (`qwen PROMPT`) with a fresh HOME, its output in OUT.
#
#   inner.sh OUT -- QWEN [ARGS...]
#
# Environment (set by run.sh): E2E_PORT, E2E_TIMEOUT, E2E_PROMPT.  The
# OpenAI auth type at http://127.0.0.1:$E2E_PORT/v1, model "e2e".  A HOME
# the case binds at /e2e-home keeps its own .qwen/QWEN.md and AGENTS.md.
out=$1
shift 2
home=/e2e-home
mkdir -p "$home"
env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$home" TERM=dumb LANG=C.UTF-8 NO_COLOR=1 \
	OPENAI_API_KEY=dummy OPENAI_BASE_URL="http://127.0.0.1:$E2E_PORT/v1" OPENAI_MODEL=e2e \
	timeout -k 5 "$E2E_TIMEOUT" "$@" --auth-type openai -m e2e "$E2E_PROMPT" \
	</dev/null >"$out/run.out" 2>"$out/run.err"
echo $? >"$out/run.rc"
exit 0
