#!/bin/sh
# make e2e: run real agent CLIs (Claude Code, Codex, Gemini CLI, OpenCode,
# pi, Copilot CLI, Qwen Code, the Cursor SDK)
# on the cases in tests/e2e and compare the instructions each sent with what
# `clawmd render --runtime RT` prints.
#
#   scripts/e2e/run.sh [CASE...]
#
# Each case (tests/e2e/<case>/case; all of them, or those named) is for one
# runtime RT (its `runtime=`, default claude), whose pieces are in
# scripts/e2e/RT/: versions, install.sh, mock-api.js, inner.sh, extract.js
# (and selftest.sh), on the shared pieces in scripts/e2e/lib/.  For every
# release of RT (RT/versions, plus $E2E_VERSIONS) and every case of RT:
# build the case's tree under
# build/e2e/work, compose it when it is a group, start the loopback mock of
# RT's model API, run the CLI headless in a container (a group with the
# mounts `clawmd mounts` prints: the group read-write at /workspace/agent,
# what compose wrote there read-only over it, the sources read-only under
# /app), cut the instructions out of the recorded requests (extract.js) and
# compare them byte for byte with render.  Prints TAP, one test per release
# and case (and, for a group, one for what the agent could change in it,
# scripts/e2e/probe.sh), a diff on a mismatch, and the pass count per
# release.  A pod case also plays the template's init step in podman
# (scripts/e2e/podman.sh), on its first release: podman.sh's checks are
# tests of the run.  Everything a run saw stays in build/e2e/results/<label>/<case>/
# (the label is the release for Claude Code, RT-release for the others).
#
# The container: a real engine when one can start (engine.sh: Debian's
# docker.io, installed when missing, as a private dockerd on paths under
# build/e2e/engine, stopped by its pid at exit; the image built from a
# local Debian root file system, never pulled), each CLI run as uid 1000
# with a read-only root, the host's network (the loopback mock) and the
# host's node and the cached CLIs bound read-only.  Where no engine can
# start, the private mount namespace of container.sh (unshare -m), which
# the first line of the output says.  Each test's line names where it ran.
#
# Environment:
#   CLAWMD              the clawmd binary (default build/clawmd)
#   E2E_VERSIONS        more releases, blank- or comma-separated: a bare
#                       number is Claude Code's, RT@V another runtime's
#   E2E_VERSIONS_ONLY=1 only the releases of E2E_VERSIONS
#   E2E_TIMEOUT         seconds per CLI run (default 120)
#   E2E_ENGINE=none     no engine: the unshare -m emulation
#   E2E_QUICK=1         one case per runtime (E2E_QUICK_CASES), the newest
#                       release of each: make e2e-quick
#   E2E_SAVE=1          write each case's real string to
#                       tests/e2e/expected/<case>/<release>.txt (@ROOT@ for
#                       a plain tree's root), with readdir.txt, the order the
#                       kernel listed its rules directories in
# Exit status: 0 every comparison matched, 1 some did not, 2 the harness
# could not run (no root, no engine and unshare refused, npm failed).
set -u
# One brace group: the shell parses the whole script before running it, so
# editing the harness during a run does not derail that run.
{
top=$(cd "$(dirname "$0")/../.." && pwd -P)
here=$top/scripts/e2e
clawmd=${CLAWMD:-$top/build/clawmd}
case $clawmd in /*) ;; *) clawmd=$PWD/$clawmd ;; esac
E=$top/build/e2e
cases_dir=$top/tests/e2e
timeout=${E2E_TIMEOUT:-120}
prompt=hello

bail() {
	echo "Bail out! $*"
	exit 2
}

# --- preflight -----------------------------------------------------------
case $top in
*[!A-Za-z0-9/._+-]*) bail "the source path $top has characters the harness does not quote" ;;
/tmp/* | /app/* | /workspace/*) bail "run from a checkout outside /tmp, /app and /workspace (the container replaces them)" ;;
esac
[ -x "$clawmd" ] || bail "no clawmd binary at $clawmd (run make first)"
command -v node >/dev/null || bail "node (20 or later) is needed for the mock API and the JavaScript releases"
command -v npm >/dev/null || bail "npm is needed to install the CLIs' releases"
[ "$(id -u)" = 0 ] || bail "make e2e needs root: it starts a private container engine (or, without one, mounts a container layout in a private mount namespace)"
mkdir -p "$E/nr" "$E/work" "$E/results" || bail "cannot create $E"

# --- the engine -------------------------------------------------------------
# shellcheck source=engine.sh
. "$here/engine.sh"
trap 'engine_stop' EXIT
trap 'exit 2' INT TERM HUP
image=clawmd-e2e:$(sha256sum "$here/image/Dockerfile" | cut -c1-12)
if engine_start "$E/engine" && engine_base_image && engine_build "$image" "$here/image/Dockerfile" &&
	{ docker run --rm --network host "$image" true >"$E/engine/trial.log" 2>&1 ||
		{ engine_why="a trial container failed: $(head -c 300 "$E/engine/trial.log" | tr '\n' ' ')"; false; }; }; then
	where=$engine_name
	echo "# engine: $engine_name (a private dockerd, build/e2e/engine; image $image from a debootstrap root file system; each run as uid 1000, read-only root, host network)"
else
	engine_stop
	where=emulation
	echo "# engine: none ($engine_why): the cases run in the unshare -m emulation (scripts/e2e/container.sh), not in a container engine"
	if ! err=$(unshare -m true 2>&1); then
		bail "no engine, and unshare -m is not permitted here ($err); run as root with CAP_SYS_ADMIN (in Docker: --privileged or --cap-add SYS_ADMIN)"
	fi
fi
node_bin=$(readlink -f "$(command -v node)")
full_bin=$(readlink -f "$clawmd")
build_dir=$(cd "$(dirname "$full_bin")/.." && pwd -P)
for st in "$here"/*/selftest.sh; do
	rt=$(basename "$(dirname "$st")")
	sh "$st" >"$E/selftest-$rt.log" 2>&1 ||
		bail "the harness's own tests for $rt failed (extract.js, mock-api.js): see build/e2e/selftest-$rt.log"
done
if [ "$where" = emulation ] && ! err=$(unshare -m sh "$here/container.sh" -r "$E/nr" -C / -- true 2>&1); then
	bail "cannot build the container layout: $err"
fi

# --- cases ----------------------------------------------------------------
# make e2e-quick: one case per runtime, a group each (nanoclaw's mounts), the pod,
# and the symlink layout of Claude Code's for the probe in both modes.
quick_cases=${E2E_QUICK_CASES:-nanoclaw-copy nanoclaw-symlink pod-nanoclaw codex-nanoclaw-copy gemini-nanoclaw-copy opencode-nanoclaw-copy pi-nanoclaw-copy copilot-nanoclaw-flat qwen-nanoclaw-copy cursor-nanoclaw-copy}
if [ $# -eq 0 ] && [ "${E2E_QUICK:-}" = 1 ]; then
	set -- $quick_cases
fi
if [ $# -gt 0 ]; then
	cases=$*
	for c in $cases; do
		[ -f "$cases_dir/$c/case" ] || bail "no case '$c' (tests/e2e/$c/case)"
	done
else
	cases=$(cd "$cases_dir" && for d in */; do [ -f "$d/case" ] && echo "${d%/}"; done)
fi
# case_runtime NAME: the case's runtime (claude unless it says)
case_runtime() {
	r=$(sed -n 's/^runtime=//p' "$cases_dir/$1/case" | tail -n1)
	echo "${r:-claude}"
}
runtimes=''
for c in $cases; do
	r=$(case_runtime "$c")
	[ -f "$here/$r/install.sh" ] || bail "case $c: no harness for runtime '$r' (scripts/e2e/$r/)"
	case " $runtimes " in *" $r "*) ;; *) runtimes="$runtimes $r" ;; esac
done

# --- releases -------------------------------------------------------------
# rt_versions RT: the releases of RT this run uses
rt_versions() {
	vs=''
	if [ "${E2E_VERSIONS_ONLY:-}" != 1 ]; then
		vs=$(sed -e 's/#.*//' "$here/$1/versions" | tr -s ' \t' '\n' | grep .)
		# quick: the newest release alone
		[ "${E2E_QUICK:-}" != 1 ] || vs=$(printf '%s\n' "$vs" | sort -V | tail -n1)
	fi
	for x in $(printf '%s\n' "${E2E_VERSIONS:-}" | tr ', \t' '\n\n\n' | grep .); do
		case $x in
		*@*) [ "${x%%@*}" = "$1" ] && vs="$vs
${x#*@}" ;;
		*) [ "$1" = claude ] && vs="$vs
$x" ;;
		esac
	done
	printf '%s\n' "$vs" | grep . | awk '!seen[$0]++'
}
plan=''
for r in $runtimes; do
	vs=$(rt_versions "$r")
	[ -n "$vs" ] || bail "no releases of $r to run (scripts/e2e/$r/versions is empty and E2E_VERSIONS names none)"
	for v in $vs; do
		echo "# installing $r $v (npm, cached in build/e2e/rt/$r/$v)"
		out=$(sh "$here/$r/install.sh" "$E/rt/$r" "$v" 2>&1) || bail "$(printf '%s' "$out" | tr '\n' ' ')"
		echo "#   $("$out" --version 2>&1 | head -n1)"
		plan="$plan $r@$v"
	done
done

# rt_cases RT: the cases of RT
rt_cases() {
	for c in $cases; do [ "$(case_runtime "$c")" = "$1" ] && echo "$c"; done
}
# a case with same_as=OTHER is a second test: its real string has the same
# file contents, in the same order, as case OTHER's (paths aside)
total=0
podman_n=$(sh "$here/podman.sh" --count)
podman_counted=''
for rv in $plan; do
	for c in $(rt_cases "${rv%%@*}"); do
		total=$((total + 1))
		if grep -q '^same_as=' "$cases_dir/$c/case"; then total=$((total + 1)); fi
		if grep -q '^kind=\(group\|pod\)' "$cases_dir/$c/case"; then total=$((total + 1)); fi
		# a pod case's podman checks, on its first release only
		if grep -q '^kind=pod' "$cases_dir/$c/case"; then
			case " $podman_counted " in *" $c "*) ;; *) podman_counted="$podman_counted $c" total=$((total + podman_n)) ;; esac
		fi
	done
done
echo "1..$total"

n=0
failed=0
summary=''

diag() { sed 's/^/# /'; }

# The model of the release that render may not know yet (before render took
# any release): the JavaScript rules up to 2.1.112, the current native ones after.
nearest_model() {
	first=$(printf '%s\n%s\n' "$1" 2.1.113 | sort -V | head -n1)
	if [ "$first" = "$1" ] && [ "$1" != 2.1.113 ]; then echo 2.1.88; else echo 2.1.330; fi
}

# load_case NAME: the case's settings, with their defaults.
load_case() {
	kind='' desc='' cwd=. group='' layout='' claude_args='' run_args='' render_args='' mounts='' pin=yes claude_json='' same_as='' overlay='' tree_of='' runtime=claude
	# shellcheck disable=SC1090
	. "$cases_dir/$1/case"
	# a pod is a group too, composed by the init container instead
	grouped=no
	case $kind in group | pod) grouped=yes ;; esac
}

# build_case NAME ROOT CT_ROOT: copy tree/, run setup.sh (those of case
# $tree_of when set), compose a group.
build_case() {
	src=$cases_dir/${tree_of:-$1}
	rm -rf "$2" && mkdir -p "$2" || return 1
	if [ -d "$src/tree" ]; then
		cp -R "$src/tree/." "$2/" || return 1
		find "$2" -name .keep -delete
	fi
	if [ -f "$src/setup.sh" ]; then
		(cd "$2" && ROOT=$2 CT_ROOT=$3 CLAWMD=$clawmd CLAWMD_SRC=$top sh -e "$src/setup.sh") || return 1
	fi
	if [ "$kind" = group ]; then
		# shellcheck disable=SC2086
		"$clawmd" compose -C "$2" -q $layout "$group" || return 1
	fi
}

# render_run OUTDIR V CMD...: run render with --claude-version V; when this
# clawmd does not know V, again with the nearest release it knows.
render_run() {
	rdir=$1 rv=$2
	shift 2
	render_model=$rv
	if [ "$rt" != claude ]; then
		"$@" --runtime "$rt" >"$rdir/render.txt" 2>"$rdir/render.err"
		return
	fi
	"$@" --claude-version "$rv" >"$rdir/render.txt" 2>"$rdir/render.err"
	rst=$?
	render_model=$rv
	if [ "$rst" = 2 ] && grep -q 'claude-version' "$rdir/render.err"; then
		render_model=$(nearest_model "$rv")
		"$@" --claude-version "$render_model" >"$rdir/render.txt" 2>"$rdir/render.err"
		rst=$?
	fi
	return "$rst"
}

# A pod case (kind=pod): contrib/kubernetes/pod.yaml run under the engine.
# The layout volume is ROOT, the group's is ROOT/groups/GROUP; the init
# container is make image's clawmd with the template's args and its mounts
# (/layout read-only, /groups/GROUP, /state), as uid 1000 with a read-only
# root, no capabilities and no-new-privileges (the template's
# securityContext); the agent container gets the volumeMounts `clawmd mounts --format
# kubernetes` prints, which must be the template's own.
pod_yaml=$top/contrib/kubernetes/pod.yaml
pod_image=''
pod_build_image() {
	if [ -z "$pod_image" ]; then
		sh "$top/scripts/image.sh" "$build_dir" || return 1
		pod_image=clawmd:$("$clawmd" -V | sed 's/^clawmd //')
	fi
}
pod_init() { # ROOT
	pod_build_image || return 1
	for mp in /layout /groups/$group /state; do
		grep -q "^ *mountPath: $mp\$" "$pod_yaml" || { echo "pod.yaml: the init container mounts no $mp"; return 1; }
	done
	pargs=$(sed -n 's/^ *args: \(\[.*\]\) *$/\1/p' "$pod_yaml" | head -n1 |
		node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).join("\n")))') ||
		{ echo "pod.yaml: no init container args"; return 1; }
	echo "init container: clawmd $(echo $pargs)"
	chown -R -h 1000:1000 "$1"
	# shellcheck disable=SC2086
	docker run --rm --user 1000:1000 --read-only --cap-drop ALL --security-opt no-new-privileges \
		--network none -v "$1:/layout:ro" \
		-v "$1/groups/$group:/groups/$group" --tmpfs /state "$pod_image" $pargs || return 1
	# The record container: the digest of what the agent will be told,
	# which must be that of render on the host.
	pcmd=$(sed -n 's/^ *command: \(\["sh", "-c", .*\]\) *$/\1/p' "$pod_yaml" | head -n1 |
		node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s)[2]))') ||
		{ echo "pod.yaml: no record container command"; return 1; }
	got=$(docker run --rm --user 1000:1000 --read-only --cap-drop ALL --security-opt no-new-privileges \
		--network none -v "$1:/layout:ro" \
		-v "$1/groups/$group:/groups/$group" --tmpfs /state --entrypoint sh "$pod_image" -c "$pcmd") ||
		{ echo "the record container failed: $got"; return 1; }
	# shellcheck disable=SC2086
	want=$("$clawmd" render -C "$1" $layout --group "$group" | sha256sum)
	echo "record container: $got"
	[ "$got" = "$want" ] || { echo "render on the host: $want"; return 1; }
}
# The template's init step under podman kube play (podman.sh), once per
# pod case, on the tree as built (before pod_init composes it): its checks
# become this run's tests.  pod_podman ROOT; pod_podman_not WHY prints them
# as not run (SKIP when WHY starts with SKIP).
podman_done=''
pod_podman() {
	podman_done="$podman_done $c"
	n=$((n - 1)) vt=$((vt - 1))
	CLAWMD=$clawmd sh "$here/podman.sh" "$1" "$group" "$build_dir/image/clawmd-${pod_image#clawmd:}.tar" \
		"$E/podman" >"$res/podman.log" 2>&1
	k=0
	while IFS= read -r pl; do
		case $pl in
		'ok - '* | 'not ok - '*)
			k=$((k + 1))
			[ $k -le "$podman_n" ] || continue
			n=$((n + 1)) vt=$((vt + 1))
			case $pl in ok*) vp=$((vp + 1)) ;; *) failed=$((failed + 1)) ;; esac
			echo "${pl%%- *}$n - $c: ${pl#*- }"
			;;
		'#'*) echo "$pl" ;;
		esac
	done <"$res/podman.log"
	n=$((n + 1)) vt=$((vt + 1))
	[ $k -ge "$podman_n" ] || pod_podman_not "podman.sh printed $k of its $podman_n checks (build/e2e/results/$label/$c/podman.log)" $k
}
pod_podman_not() { # WHY [DONE]
	podman_done="$podman_done $c"
	n=$((n - 1)) vt=$((vt - 1))
	k=${2:-0}
	while [ $k -lt "$podman_n" ]; do
		k=$((k + 1))
		n=$((n + 1)) vt=$((vt + 1))
		case $1 in
		SKIP*) echo "ok $n - $c: podman check $k # $1"; vp=$((vp + 1)) ;;
		*) echo "not ok $n - $c: podman check $k did not run: $1"; failed=$((failed + 1)) ;;
		esac
	done
	n=$((n + 1)) vt=$((vt + 1))
}
# podman_due: this pod case's podman checks have not run in this run
podman_due() {
	[ "$kind" = pod ] || return 1
	case " $podman_done " in *" $c "*) return 1 ;; esac
}

# pod_mounts ROOT KUBE_YAML: the kubernetes volumeMounts as SRC:DST[:ro]
# words (clawmd-group is ROOT/groups/GROUP, clawmd-layout ROOT).
pod_mounts() {
	awk -v g="$1/groups/$group" -v l="$1" '
		function emit() { gsub(/"/, "", mp); gsub(/"/, "", sp)
			base = name == "clawmd-group" ? g : l
			print (sp == "" ? base : base "/" sp) ":" mp ro }
		/^  - name: / { if (mp != "") emit(); name = $3; mp = ""; sp = ""; ro = "" }
		/^    mountPath: / { mp = $2 }
		/^    subPath: / { sp = $2 }
		/^    readOnly: true/ { ro = ":ro" }
		END { if (mp != "") emit() }' "$2"
}

# in_container TIMEOUT [--agent] [-m SRC:DST[:ro]]... [-o DIR]... -C CWD -- CMD...:
# CMD in the container.  In the engine: a fresh container of the image, as
# uid 1000, read-only root, a tmpfs /tmp and (unless a -m binds one) a
# tmpfs HOME at /e2e-home, the host's network; node, the cached CLIs, the
# harness and clawmd's build bound read-only at their host paths, the
# case's results read-write; E2E_PORT, E2E_TIMEOUT, E2E_PROMPT and
# E2E_CLAUDE_JSON passed in.  -o (an overlay of a host directory, for a
# mount point inside it) needs nothing there: the root is the image's.  In
# the emulation: container.sh's namespace, as root; with --agent the
# command runs as uid 1000 there too (setpriv).
ctr=0
in_container() {
	it=$1
	shift
	agent=no
	if [ "$1" = --agent ]; then agent=yes; shift; fi
	ctr=$((ctr + 1))
	if [ "$where" = emulation ]; then
		# the options (words without blanks: the harness's paths) up to --
		opts=''
		while [ $# -gt 0 ] && [ "$1" != -- ]; do opts="$opts $1"; shift; done
		shift
		[ $agent = no ] || set -- setpriv --reuid=1000 --regid=1000 --clear-groups -- "$@"
		# shellcheck disable=SC2086
		timeout -k 5 $((it + 30)) unshare -m sh "$here/container.sh" -r "$E/nr" $opts -- "$@"
		return
	fi
	dargs="--rm --network host --user 1000:1000 --read-only --tmpfs /tmp:mode=1777"
	dargs="$dargs -v $node_bin:$node_bin:ro -v $here:$here:ro -v $build_dir:$build_dir:ro"
	dargs="$dargs -v $E/rt:$E/rt:ro -v $res:$res"
	dhome=no wd=/
	while [ $# -gt 0 ]; do
		case $1 in
		-m)
			dargs="$dargs -v $2"
			case $2 in *:/e2e-home | *:/e2e-home:*) dhome=yes ;; esac
			shift 2
			;;
		-o) shift 2 ;;
		-C) wd=$2; shift 2 ;;
		--) shift; break ;;
		*) echo "in_container: unknown option $1" >&2; return 125 ;;
		esac
	done
	[ $dhome = yes ] || dargs="$dargs --tmpfs /e2e-home:mode=1777"
	cname=clawmd-e2e-$$-$ctr
	# shellcheck disable=SC2086
	timeout -k 5 $((it + 60)) docker run $dargs --name "$cname" -w "$wd" \
		-e E2E_PORT="${E2E_PORT:-}" -e E2E_TIMEOUT="${E2E_TIMEOUT:-}" -e E2E_PROMPT="${E2E_PROMPT:-}" \
		-e E2E_CLAUDE_JSON="${E2E_CLAUDE_JSON:-}" "$image" "$@"
	dst=$?
	# a client the timeout killed leaves its container behind
	docker rm -f "$cname" >/dev/null 2>&1
	return $dst
}

for rv in $plan; do
	rt=${rv%%@*} v=${rv#*@}
	# Claude Code's results stay under the bare release, as before runtimes
	label=$v
	[ "$rt" = claude ] || label=$rt-$v
	bin=$(sh "$here/$rt/install.sh" "$E/rt/$rt" "$v")
	case $rt in claude) rtname='Claude Code' ;; codex) rtname=Codex ;; gemini) rtname='Gemini CLI' ;;
	opencode) rtname=OpenCode ;; copilot) rtname='Copilot CLI' ;; qwen) rtname='Qwen Code' ;;
	cursor) rtname='Cursor SDK' ;; *) rtname=$rt ;; esac
	pass=0 vt=0 vp=0 done_cases=''
	rcases=$(rt_cases "$rt")
	nc=$(echo "$rcases" | wc -w)
	for c in $rcases; do
		n=$((n + 1)) vt=$((vt + 1))
		load_case "$c"
		res=$E/results/$label/$c
		rm -rf "$res" && mkdir -p "$res/requests"
		root=$E/work/$label/$c
		if [ "$grouped" = yes ]; then
			ct_root=/workspace/agent
			ct_cwd=/workspace/agent
		else
			ct_root=/e2e/$c
			ct_cwd=$ct_root/$cwd
		fi
		name="$label $c${desc:+: $desc}"
		if [ "$kind" = pod ] && [ "$where" = emulation ]; then
			! podman_due || pod_podman_not "SKIP no image without a container engine"
			echo "ok $n - $name # SKIP no container engine for the pod"
			n=$((n + 1)) vt=$((vt + 1)) vp=$((vp + 2))
			echo "ok $n - $label $c: the probe # SKIP no container engine for the pod"
			continue
		fi
		if ! { build_case "$c" "$root" "$ct_root" >"$res/build.log" 2>&1 &&
			{ [ "$kind" != pod ] || { pod_build_image >>"$res/build.log" 2>&1 &&
				{ ! podman_due || pod_podman "$root"; } && pod_init "$root" >>"$res/build.log" 2>&1; }; }; }; then
			! podman_due || pod_podman_not "building the case or the image failed"
			echo "not ok $n - $name [$where]"
			echo "# building the case failed:"
			diag <"$res/build.log"
			failed=$((failed + 1))
			if [ "$grouped" = yes ]; then
				n=$((n + 1)) vt=$((vt + 1))
				echo "not ok $n - $label $c: the probe did not run [$where]"
				failed=$((failed + 1))
			fi
			continue
		fi
		# The container: a group sees the layout through the mounts
		# `clawmd mounts` prints for it (the case's own mounts outside /app
		# and /workspace, such as a home, come along); a plain tree is bound
		# at /e2e/<case> and run at its own cwd.
		binds='' ro_paths=''
		if [ "$grouped" = yes ]; then
			if [ "$kind" = pod ]; then
				# shellcheck disable=SC2086
				"$clawmd" mounts -C "$root" $layout --format kubernetes "$group" >"$res/mounts.yaml" 2>"$res/mounts.err" &&
					pod_mounts "$root" "$res/mounts.yaml" | sed 's/^/-v\n/' >"$res/mounts" &&
					grep -v '^ *#' "$res/mounts.yaml" | sed -n '/^volumeMounts:/,$p' | sed '1d; s/^ *//' >"$res/mounts.ours" &&
					sed -n '/^ *# clawmd mounts .* --format kubernetes$/,/^ *# the agent.s own/p' "$pod_yaml" |
					sed '1d; $d; s/^ *//' >"$res/mounts.template" &&
					{ cmp -s "$res/mounts.ours" "$res/mounts.template" ||
						{ diff -u "$res/mounts.template" "$res/mounts.ours" >"$res/mounts.err"; false; }; }
				mst=$?
			else
				# shellcheck disable=SC2086
				"$clawmd" mounts -C "$root" $layout "$group" >"$res/mounts" 2>"$res/mounts.err"
				mst=$?
			fi
			if [ "$mst" != 0 ]; then
				echo "not ok $n - $name [$where]"
				echo "# clawmd mounts failed (for a pod: or differs from contrib/kubernetes/pod.yaml's):"
				diag <"$res/mounts.err"
				failed=$((failed + 1))
				n=$((n + 1)) vt=$((vt + 1))
				echo "not ok $n - $label $c: the probe did not run [$where]"
				failed=$((failed + 1))
				continue
			fi
			for m in $(grep -v '^-v$' "$res/mounts"); do
				binds="$binds -m $m"
				case $m in *:ro) x=${m%:ro}; ro_paths="$ro_paths ${x##*:}" ;; esac
			done
			for m in $mounts; do
				x=${m#*:}
				case ${x%%:*} in /app | /app/* | /workspace | /workspace/*) continue ;; esac
				binds="$binds -m $(printf '%s' "$m" | sed "s|@ROOT@|$root|g")"
			done
		else
			binds="-m $root:$ct_root"
			for m in $mounts; do binds="$binds -m $(printf '%s' "$m" | sed "s|@ROOT@|$root|g")"; done
			# the order the kernel lists each rules directory in, for the record
			find "$root" -type d -path '*/.claude/rules*' | sort | while read -r d; do
				echo "${d#"$root"/}: $(ls -f "$d" | grep -v '^\.\.\?$' | tr '\n' ' ')"
			done >"$res/readdir.txt"
		fi
		for o in $overlay; do binds="-o $o $binds"; done
		cj=''
		if [ -n "$claude_json" ]; then
			cj=$res/claude.json
			sed "s|@CWD@|$ct_cwd|g" "$cases_dir/$c/$claude_json" >"$cj"
		fi
		if [ "$where" != emulation ]; then
			# The agent's uid owns its files, as a careless host leaves
			# them: what protects clawmd's is the read-only mounts alone.
			chown -R -h 1000:1000 "$root" "$res"
		fi
		node "$here/$rt/mock-api.js" "$res/requests" "$res/port" 2>"$res/mock.err" &
		mock=$!
		i=0
		while [ ! -s "$res/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
		if [ ! -s "$res/port" ]; then
			kill "$mock" 2>/dev/null
			echo "not ok $n - $name [$where]"
			echo "# the mock API did not start:"
			diag <"$res/mock.err"
			failed=$((failed + 1))
			continue
		fi
		E2E_PORT=$(cat "$res/port") E2E_TIMEOUT=$timeout E2E_PROMPT=$prompt E2E_CLAUDE_JSON=$cj
		export E2E_PORT E2E_TIMEOUT E2E_PROMPT E2E_CLAUDE_JSON
		# shellcheck disable=SC2086
		in_container "$timeout" $binds -C "$ct_cwd" -- \
			sh "$here/$rt/inner.sh" "$res" -- "$bin" $claude_args $run_args >"$res/container.log" 2>&1
		cst=$?
		kill "$mock" 2>/dev/null
		wait "$mock" 2>/dev/null
		crc=$(cat "$res/run.rc" 2>/dev/null || echo none)
		if [ "$cst" != 0 ] || [ "$crc" != 0 ]; then
			echo "not ok $n - $name [$where]"
			if [ "$crc" = 124 ] || [ "$cst" = 124 ]; then
				echo "# $rtname $v did not finish within ${timeout}s (E2E_TIMEOUT)"
			else
				echo "# the run failed (container exit $cst, $rt exit $crc):"
			fi
			cat "$res/container.log" "$res/run.err" "$res/run.out" 2>/dev/null | tail -n 15 | diag
			failed=$((failed + 1))
			if [ "$grouped" = yes ]; then
				n=$((n + 1)) vt=$((vt + 1))
				echo "not ok $n - $label $c: the probe did not run [$where]"
				failed=$((failed + 1))
			fi
			continue
		fi
		if ! node "$here/$rt/extract.js" "$res/requests" "$prompt" "$res/real.txt" >"$res/extract.log" 2>&1; then
			echo "not ok $n - $name"
			diag <"$res/extract.log"
			failed=$((failed + 1))
			continue
		fi
		done_cases="$done_cases $c"
		# shellcheck disable=SC2086
		if [ "$grouped" = yes ]; then
			render_run "$res" "$v" "$clawmd" render -C "$root" $layout --group "$group" --format text $render_args
		else
			render_run "$res" "$v" in_container 60 $binds -C "$ct_cwd" -- \
				"$clawmd" render --cwd "$ct_cwd" --home /e2e-home --managed-dir /etc/claude-code \
				--format text $render_args
		fi
		rst=$?
		if [ "$pin" = yes ]; then
			# a plain tree's root becomes @ROOT@; a group keeps its container paths
			if [ "$grouped" = yes ]; then cp "$res/real.txt" "$res/real.pinned"; else
				sed "s|$ct_root|@ROOT@|g" "$res/real.txt" >"$res/real.pinned"; fi
			# sed adds a final newline the string does not have
			if [ -s "$res/real.txt" ] && [ "$(tail -c1 "$res/real.txt" | od -An -c | tr -d ' ')" != '\n' ]; then
				printf '%s' "$(cat "$res/real.pinned")" >"$res/real.pinned2" && mv "$res/real.pinned2" "$res/real.pinned"
			fi
			exp=$cases_dir/expected/$c/$v.txt
			if [ "${E2E_SAVE:-}" = 1 ]; then
				mkdir -p "$(dirname "$exp")" && cp "$res/real.pinned" "$exp"
				[ ! -s "$res/readdir.txt" ] || cp "$res/readdir.txt" "$(dirname "$exp")/readdir.txt"
			elif [ -f "$exp" ] && ! cmp -s "$exp" "$res/real.pinned"; then
				echo "# note: $rtname $v sent a different string than the one pinned in tests/e2e/expected/$c/$v.txt"
			fi
		fi
		tname=$name
		[ "$render_model" = "$v" ] || tname="$name (render knows no $v: compared with --claude-version $render_model)"
		tname="$tname [$where]"
		# a case's `once` file: lines the real string must hold exactly
		# once each (a runtime that reads two of clawmd's files, such as
		# Copilot's AGENTS.md and CLAUDE.md, must get the text once)
		twice=''
		if [ -f "$cases_dir/$c/once" ]; then
			twice=$(while IFS= read -r ln; do
				[ -n "$ln" ] || continue
				k=$(grep -cxF -e "$ln" "$res/real.txt")
				[ "$k" = 1 ] || echo "$k times: $ln"
			done <"$cases_dir/$c/once")
		fi
		if [ "$rst" = 0 ] && [ -z "$twice" ] && cmp -s "$res/real.txt" "$res/render.txt"; then
			echo "ok $n - $tname"
			pass=$((pass + 1)) vp=$((vp + 1))
		else
			echo "not ok $n - $tname"
			if [ -n "$twice" ]; then
				echo "# lines of tests/e2e/$c/once that $rtname $v did not get exactly once:"
				printf '%s\n' "$twice" | diag
			fi
			if [ "$rst" != 0 ]; then
				echo "# clawmd render exited $rst:"
				diag <"$res/render.err"
			fi
			# first the files each loaded, in order, then the whole strings
			grep '^Contents of ' "$res/render.txt" >"$res/render.files"
			grep '^Contents of ' "$res/real.txt" >"$res/real.files"
			if ! cmp -s "$res/render.files" "$res/real.files"; then
				echo "# files loaded, in order:"
				diff -U 99 --label "clawmd render" --label "$rtname $v" "$res/render.files" "$res/real.files" |
					sed 's/^\([-+ ]\)Contents of \(.*\):$/\1 \2/' | diag
			fi
			diff -u --label "clawmd render" --label "$rtname $v" "$res/render.txt" "$res/real.txt" >"$res/diff"
			head -n 40 "$res/diff" | diag
			[ "$(wc -l <"$res/diff")" -le 40 ] || echo "# (diff truncated: build/e2e/results/$label/$c/diff)"
			failed=$((failed + 1))
		fi
		if [ "$grouped" = yes ]; then
			# What the agent can change, after everything was compared.
			n=$((n + 1)) vt=$((vt + 1))
			pname="$label $c: as uid 1000 the agent cannot change the entry, the shared base, the fragments or /app, and can write its memory [$where]"
			chown -R -h 1000:1000 "$root"
			# shellcheck disable=SC2086
			in_container 60 --agent $binds -C "$ct_cwd" -- sh "$here/probe.sh" $ro_paths >"$res/probe.txt" 2>&1
			if [ $? = 0 ]; then
				echo "ok $n - $pname"
				vp=$((vp + 1))
			else
				echo "not ok $n - $pname"
				grep -v '^ok - ' "$res/probe.txt" | diag
				failed=$((failed + 1))
			fi
			grep '^note: ' "$res/probe.txt" | diag
		fi
		[ -n "$same_as" ] || continue
		n=$((n + 1)) vt=$((vt + 1))
		ref=$E/results/$label/$same_as/real.txt
		sname="$label $c: loads the same contents as $same_as [$where]"
		if ! case " $done_cases " in *" $same_as "*) true ;; *) false ;; esac || [ ! -f "$ref" ]; then
			echo "ok $n - $sname # SKIP $same_as did not run before it"
			vp=$((vp + 1))
			continue
		fi
		# the memory string without its "Contents of PATH (...):" headers and
		# without the composed entry's imports of the base and fragments:
		# those name the copy (".claude-shared.md", and
		# ".claude-fragments/skill-x/instructions.md" for a fragment copied
		# with the files it imports) where symlink mode names the link
		# (".claude-fragments/shared.md", ".claude-fragments/skill-x.md")
		same_filter() { grep -v -e '^Contents of .*:$' -e '^@\./\.claude-fragments/' -e '^@\./\.claude-shared\.md$' "$1"; }
		same_filter "$ref" >"$res/same.ref"
		same_filter "$res/real.txt" >"$res/same.got"
		if cmp -s "$res/same.ref" "$res/same.got"; then
			echo "ok $n - $sname"
			vp=$((vp + 1))
		else
			echo "not ok $n - $sname"
			diff -u --label "$same_as ($rtname $v)" --label "$c ($rtname $v)" \
				"$res/same.ref" "$res/same.got" | head -n 40 | diag
			failed=$((failed + 1))
		fi
	done
	summary="$summary
# $rtname $v: $vp of $vt tests pass ($pass of $nc cases match render)"
done
echo "# results, requests and diffs: build/e2e/results/<release>/<case>/$summary"
[ "$failed" = 0 ] || exit 1
exit 0
}
