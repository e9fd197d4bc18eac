#!/bin/sh
# Runs inside the container made by container.sh, in the case's cwd: one
# headless Gemini CLI run (gemini -p) with a fresh HOME, its output in OUT.
#
#   inner.sh OUT -- GEMINI [ARGS...]
#
# Environment (set by run.sh): E2E_PORT, E2E_TIMEOUT, E2E_PROMPT, and
# optionally E2E_CLAUDE_JSON (a case's claude_json=; E2E_GEMINI_SETTINGS
# wins), a JSON object of settings.json keys merged over the harness's own
# (telemetry, usage statistics and update checks off, API-key auth) into a
# fresh ~/.gemini/settings.json.  A HOME the case binds at /e2e-home that
# has a settings.json keeps it as it is.  The workspace is trusted
# (GEMINI_CLI_TRUST_WORKSPACE): headless in an untrusted folder, Gemini CLI
# exits 55 before any request.
out=$1
shift 2
home=/e2e-home
# fresh: the container root is a new tmpfs, unless the case binds a HOME here
[ -d "$home/.gemini" ] || mkdir -p "$home/.gemini"
# the user settings: the case's keys over the harness's quiet defaults
node -e '
const fs = require("fs");
const base = {
	general: { disableAutoUpdate: true, disableUpdateNag: true },
	privacy: { usageStatisticsEnabled: false },
	telemetry: { enabled: false },
	security: { auth: { selectedType: "gemini-api-key" } },
};
const f = process.argv[1], extra = process.argv[2];
let s = base;
if (fs.existsSync(f)) s = JSON.parse(fs.readFileSync(f, "utf8"));
else if (extra) s = Object.assign(base, JSON.parse(fs.readFileSync(extra, "utf8")));
fs.writeFileSync(f, JSON.stringify(s, null, 2));
' "$home/.gemini/settings.json" "${E2E_GEMINI_SETTINGS:-${E2E_CLAUDE_JSON:-}}"
env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$home" TERM=dumb LANG=C.UTF-8 \
	GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$E2E_PORT" GEMINI_API_KEY=dummy \
	GEMINI_CLI_NO_RELAUNCH=true GEMINI_CLI_TRUST_WORKSPACE=true NO_COLOR=1 CI=1 \
	timeout -k 5 "$E2E_TIMEOUT" "$@" -p "$E2E_PROMPT" \
	</dev/null >"$out/run.out" 2>"$out/run.err"
echo $? >"$out/run.rc"
exit 0
