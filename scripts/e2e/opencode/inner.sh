#!/bin/sh
# Runs inside the container made by container.sh, in the case's cwd: one
# headless OpenCode run (`opencode run PROMPT`) with a fresh HOME, its
# output in OUT.
#
#   inner.sh OUT -- OPENCODE [ARGS...]
#
# Runs `OPENCODE run ARGS... PROMPT`, except that an ARG written
# --e2e-env=NAME=VALUE (a case's run_args) goes into the run's environment
# instead (OPENCODE_DISABLE_CLAUDE_CODE_PROMPT=1, say).  Environment (set by
# run.sh): E2E_PORT, E2E_TIMEOUT, E2E_PROMPT.
#
# The model is the provider "mock" of the config given in
# OPENCODE_CONFIG_CONTENT: the OpenAI-compatible SDK (bundled in the binary,
# nothing is fetched) at http://127.0.0.1:$E2E_PORT/v1, model "e2e".  The
# content config is merged over the global and project configs, so a case's
# own opencode.json (its `instructions`) still counts.  Updates, sharing,
# the models.dev fetch, the default plugins and LSP downloads are off.
out=$1
bin=$3
shift 3
extra_env=''
n=$#
while [ "$n" -gt 0 ]; do
	a=$1
	shift
	n=$((n - 1))
	case $a in
	--e2e-env=[A-Z]*=*) extra_env="$extra_env ${a#--e2e-env=}" ;;
	*) set -- "$@" "$a" ;;
	esac
done
home=/e2e-home
# fresh: the container root is a new tmpfs, unless the case binds a HOME here
[ -d "$home" ] || mkdir -p "$home"
config='{"$schema":"https://opencode.ai/config.json","autoupdate":false,"share":"disabled",'
config=$config'"model":"mock/e2e","small_model":"mock/e2e","provider":{"mock":{"npm":"@ai-sdk/openai-compatible",'
config=$config'"name":"e2e mock","options":{"baseURL":"http://127.0.0.1:'$E2E_PORT'/v1","apiKey":"dummy"},'
config=$config'"models":{"e2e":{"name":"e2e"}}}}}'
# shellcheck disable=SC2086
env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$home" TERM=dumb LANG=C.UTF-8 \
	OPENCODE_CONFIG_CONTENT="$config" \
	OPENCODE_DISABLE_AUTOUPDATE=1 OPENCODE_DISABLE_MODELS_FETCH=1 \
	OPENCODE_DISABLE_DEFAULT_PLUGINS=1 OPENCODE_DISABLE_LSP_DOWNLOAD=1 \
	$extra_env \
	timeout -k 5 "$E2E_TIMEOUT" "$bin" run "$@" "$E2E_PROMPT" \
	</dev/null >"$out/run.out" 2>"$out/run.err"
echo $? >"$out/run.rc"
exit 0
