#!/bin/sh
# Runs inside the container in the case's cwd: one headless Copilot CLI
# run (`copilot -p PROMPT`) with a fresh HOME, its output in OUT.
#
#   inner.sh OUT -- COPILOT [ARGS...]
#
# Environment (set by run.sh): E2E_PORT, E2E_TIMEOUT, E2E_PROMPT.  BYOK
# mode, offline (no login, no GitHub request, no update): the provider is
# the OpenAI chat API at http://127.0.0.1:$E2E_PORT/v1, model gpt-4.1 (a
# name Copilot knows the context budget of).  COPILOT_HOME is under the
# fresh HOME; a HOME the case binds at /e2e-home keeps its own
# .copilot/copilot-instructions.md.  The application the binary unpacks at
# its first start is the one install.sh unpacked beside it (XDG_CACHE_HOME).
out=$1
shift 2
cache=$(dirname "$1")/cache
home=/e2e-home
mkdir -p "$home/.copilot"
env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$home" TERM=dumb LANG=C.UTF-8 NO_COLOR=1 \
	COPILOT_HOME="$home/.copilot" COPILOT_OFFLINE=true COPILOT_AUTO_UPDATE=false \
	COPILOT_PROVIDER_BASE_URL="http://127.0.0.1:$E2E_PORT/v1" COPILOT_PROVIDER_TYPE=openai \
	COPILOT_PROVIDER_API_KEY=dummy COPILOT_MODEL=gpt-4.1 XDG_CACHE_HOME="$cache" \
	timeout -k 5 "$E2E_TIMEOUT" "$@" -p "$E2E_PROMPT" --allow-all-tools --no-auto-update -s \
	</dev/null >"$out/run.out" 2>"$out/run.err"
echo $? >"$out/run.rc"
exit 0
