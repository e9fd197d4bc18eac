#!/bin/sh
# Runs inside the container made by container.sh, in the case's cwd: one
# headless Codex CLI session (`codex exec`) with a fresh HOME, its output in
# OUT (run.out, run.err, run.rc).
#
#   inner.sh OUT -- CODEX [ARGS...]
#
# ARGS go to `codex exec`, before the prompt (e.g. -c project_doc_max_bytes=64).
# Environment (set by run.sh): E2E_PORT, E2E_TIMEOUT, E2E_PROMPT.
# CODEX_HOME is left unset: Codex uses $HOME/.codex, where this writes the
# config.toml that points it at the mock (a model provider "e2e" on the
# Responses API at http://127.0.0.1:$E2E_PORT/v1, key from E2E_API_KEY).
# A case that binds its own HOME here keeps its other files (AGENTS.md ...).
out=$1
shift 2
bin=$1
shift
home=/e2e-home
# fresh: the container root is a new tmpfs, unless the case binds a HOME here
mkdir -p "$home/.codex"
cat >"$home/.codex/config.toml" <<TOML
model = "e2e-model"
model_provider = "e2e"
check_for_update_on_startup = false

[analytics]
enabled = false

[model_providers.e2e]
name = "e2e mock"
base_url = "http://127.0.0.1:$E2E_PORT/v1"
env_key = "E2E_API_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0
TOML
env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$home" TERM=dumb LANG=C.UTF-8 \
	E2E_API_KEY=dummy \
	timeout -k 5 "$E2E_TIMEOUT" "$bin" exec --strict-config --skip-git-repo-check \
	--ephemeral --color never "$@" "$E2E_PROMPT" \
	</dev/null >"$out/run.out" 2>"$out/run.err"
echo $? >"$out/run.rc"
exit 0
