#!/bin/sh
# Runs inside the container in the case's cwd: one headless pi run
# (`pi -p PROMPT`) with a fresh HOME, its output in OUT.
#
#   inner.sh OUT -- PI [ARGS...]
#
# Environment (set by run.sh): E2E_PORT, E2E_TIMEOUT, E2E_PROMPT.  The
# model is the provider "mock" of the agent directory's models.json: the
# OpenAI completions API at http://127.0.0.1:$E2E_PORT/v1, model "e2e";
# offline (PI_OFFLINE: no update or package checks), no session file.  A
# HOME the case binds at /e2e-home keeps its own agent directory files
# (an AGENTS.md there is pi's global one); models.json is the harness's.
out=$1
shift 2
home=/e2e-home
agent=$home/.pi/agent
mkdir -p "$agent"
printf '{"providers":{"mock":{"baseUrl":"http://127.0.0.1:%s/v1","api":"openai-completions","apiKey":"dummy","models":[{"id":"e2e","name":"e2e"}]}}}\n' \
	"$E2E_PORT" >"$agent/models.json"
env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$home" TERM=dumb LANG=C.UTF-8 NO_COLOR=1 \
	PI_CODING_AGENT_DIR="$agent" PI_OFFLINE=1 \
	timeout -k 5 "$E2E_TIMEOUT" "$@" -p --provider mock --model e2e --no-session "$E2E_PROMPT" \
	</dev/null >"$out/run.out" 2>"$out/run.err"
echo $? >"$out/run.rc"
exit 0
