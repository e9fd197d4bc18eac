#!/bin/sh
# podman.sh - contrib/kubernetes/pod.yaml's init step under a real consumer
# of pod YAML, for make e2e: `podman kube play` (Debian's podman, 4.3.1 in
# bookworm), not a replay of the template by hand.
#
#   sh scripts/e2e/podman.sh TREE GROUP IMAGE_TAR WORK
#   sh scripts/e2e/podman.sh --count
#
# TREE is a case's layout as built, not composed yet (the group at
# TREE/groups/GROUP); IMAGE_TAR is make image's saved clawmd image
# (build/image/clawmd-VERSION.tar, podman load takes it).  WORK is made
# fresh: a private containers.conf (runtime runc: crun fails here; explicit
# default_ulimits; catatonit as the init and the pause image's) and
# storage.conf (storage under WORK), so nothing of the host's podman is
# used or changed; at the end the storage is reset (podman system reset),
# so nothing stays mounted.
#
# Two plays of the template, with `--network none`:
#  1. the template itself, its images named as loaded here (clawmd:VERSION
#     and the agent's, which is the clawmd image too: the agent step is
#     make e2e's dockerd replay): the volumes are podman's named volumes of
#     the template's claimNames (the layout's and the group's filled with
#     TREE's, the state's left for kube play to make); both init containers
#     must exit 0, compose before record, the group they composed must
#     equal a compose on the host with the template's args, and record's
#     log the digest of render on the host;
#  2. the same, each init container running a probe instead of its
#     command, with its own securityContext and volumeMounts: its uid and
#     gid (runAsUser, runAsGroup), a write to / (readOnlyRootFilesystem),
#     its capabilities and NoNewPrivs from /proc/self/status
#     (capabilities drop ALL, allowPrivilegeEscalation false), a write to
#     each mount (readOnly).
# What podman does with the agent container (4.3 ignores subPath), fsGroup
# (the supplementary groups) and whether it kept the init containers is
# printed as notes.
#
# Output: one line per check, "ok - TEXT" or "not ok - TEXT" (run.sh
# numbers them), "# " lines after a failed one and for the notes; the
# logs and YAML stay in WORK.  --count prints the number of checks.
# Exit status: 0 every check passed, 1 some failed.
set -u
checks=7
if [ "${1:-}" = --count ]; then echo "$checks"; exit 0; fi
[ $# = 4 ] || { echo "usage: podman.sh TREE GROUP IMAGE_TAR WORK | --count" >&2; exit 2; }
tree=$1 group=$2 tar=$3
mkdir -p "$4" && work=$(cd "$4" && pwd -P) || exit 2
top=$(cd "$(dirname "$0")/../.." && pwd -P)
yaml=$top/contrib/kubernetes/pod.yaml
pod=$(sed -n 's/^  name: \([A-Za-z0-9.-]*\).*/\1/p' "$yaml" | head -n1)
failed=0

# check OK TEXT [DETAILS FILE]: one line, the file's lines as diagnostics
# when it failed
check() {
	if [ "$1" = 0 ]; then echo "ok - $2"; else
		echo "not ok - $2"
		failed=$((failed + 1))
		[ -z "${3:-}" ] || sed 's/^/#   /' "$3"
	fi
}
# none_ran WHY: every check fails, saying why podman could not run
none_ran() {
	i=0
	while [ $i -lt $checks ]; do
		echo "not ok - podman: $1"
		i=$((i + 1))
	done
	exit 1
}

# --- the engine -------------------------------------------------------------
export CONTAINERS_CONF="$work/containers.conf" CONTAINERS_STORAGE_CONF="$work/storage.conf"
# the last run's storage, reset through its own configuration before it goes
if [ -f "$work/storage.conf" ]; then podman system reset --force >/dev/null 2>&1; fi
rm -rf "$work" && mkdir -p "$work/storage" "$work/run" "$work/tmp" "$work/net" || none_ran "cannot create $work"
[ "$(id -u)" = 0 ] || none_ran "needs root"
[ -s "$tar" ] || none_ran "no image $tar (make image)"
missing=''
for p in podman:podman runc:runc catatonit:catatonit newuidmap:uidmap; do
	command -v "${p%%:*}" >/dev/null || missing="$missing ${p#*:}"
done
if [ -n "$missing" ]; then
	echo "# installing$missing (apt-get, log in $work/apt.log)"
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing >"$work/apt.log" 2>&1 ||
		none_ran "apt-get install$missing failed (see $work/apt.log)"
fi
cat >"$work/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=4096:4096"]
init_path = "$(command -v catatonit)"
log_driver = "k8s-file"
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
events_logfile_path = "$work/events.log"
tmp_dir = "$work/tmp"
[network]
network_config_dir = "$work/net"
EOF
cat >"$work/storage.conf" <<EOF
[storage]
driver = "overlay"
runroot = "$work/run"
graphroot = "$work/storage"
EOF
# whatever happens from here, the storage is reset at exit: nothing of the
# run stays mounted
trap 'podman system reset --force >/dev/null 2>&1' EXIT
trap 'exit 1' INT TERM HUP
version=$(podman --version 2>&1) || none_ran "podman --version: $version"
version=${version#podman version }
echo "# podman $version (runc, storage in $work; logs and YAML there too)"
podman load -i "$tar" >"$work/load.log" 2>&1 || none_ran "podman load $tar failed: $(tail -n 2 "$work/load.log" | tr '\n' ' ')"
image=$(sed -n 's/^Loaded image[^:]*: *//p' "$work/load.log" | head -n1)
[ -n "$image" ] || none_ran "podman load named no image: $(tr '\n' ' ' <"$work/load.log")"

# --- the volumes: a claimName is a podman named volume ------------------------
# claim VOLUME: the template's claimName of a volume
claim() {
	awk -v v="$1" '/^  volumes:/ { s = 1 } s && /^    - name: / { n = $3 }
		s && n == v && /claimName:/ { print $2; exit }' "$yaml"
}
layout_claim=$(claim clawmd-layout) group_claim=$(claim clawmd-group) state_claim=$(claim clawmd-state)
[ -n "$layout_claim" ] && [ -n "$group_claim" ] && [ -n "$state_claim" ] ||
	none_ran "pod.yaml: no claimName for clawmd-layout, clawmd-group or clawmd-state"
# fill VOLUME DIR: a named volume holding DIR's files, owned by uid 1000
# as the init container, which runs as the agent's uid, needs the group
fill() {
	podman volume create "$1" >/dev/null || return 1
	mp=$(podman volume inspect --format '{{.Mountpoint}}' "$1") || return 1
	cp -R "$2/." "$mp/" && chown -R -h 1000:1000 "$mp"
}
fill "$layout_claim" "$tree" && fill "$group_claim" "$tree/groups/$group" ||
	none_ran "cannot fill the volumes $layout_claim and $group_claim"
group_dir=$(podman volume inspect --format '{{.Mountpoint}}' "$group_claim")

# --- the host's compose and render, with the template's args -------------------
# The init container's args, /layout, /groups and /state made host paths.
host=$work/host
cp -R "$tree" "$host" && mkdir "$work/host-state" || none_ran "cannot copy $tree"
args=$(sed -n 's/^ *args: \(\[.*\]\) *$/\1/p' "$yaml" | head -n1 |
	node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).join("\n")))') ||
	none_ran "pod.yaml: no init container args"
hargs=$(printf '%s\n' "$args" | sed -e "s|^/layout\$|$host|" -e "s|^/groups\$|$host/groups|" -e "s|^/state\$|$work/host-state|")
clawmd=${CLAWMD:-$top/build/clawmd}
# shellcheck disable=SC2086
"$clawmd" $hargs >"$work/host-compose.log" 2>&1 || none_ran "compose on the host failed: $(tr '\n' ' ' <"$work/host-compose.log")"
rargs=$(printf '%s\n' "$hargs" | sed '$d' | grep -v '^compose$')
# shellcheck disable=SC2086
want=$("$clawmd" $rargs render --group "$group" 2>"$work/host-render.log" | sha256sum)

# --- play 1: the template -------------------------------------------------------
# sub_images: the template with its images named as loaded here
sub_images() {
	sed -e "s|^\( *image: \)clawmd:[^ ]*|\1$image|" -e "s|^\( *image: \)your-agent-image|\1$image|" "$yaml"
}
sub_images >"$work/play.yaml"
timeout -k 10 300 podman kube play --network none "$work/play.yaml" >"$work/play.log" 2>&1
pst=$?
# state CONTAINER: exit code, start and finish (ns)
state() {
	podman inspect --format '{{.State.ExitCode}} {{.State.StartedAt.UnixNano}} {{.State.FinishedAt.UnixNano}}' "$pod-$1" 2>/dev/null
}
cs=$(state compose) rs=$(state record)
{
	echo "podman kube play exited $pst:"
	sed 's/^/  /' "$work/play.log"
	echo "compose (exit, started, finished): ${cs:-no container}"
	echo "record: ${rs:-no container}"
} >"$work/play.txt"
ok=1
if [ -n "$cs" ] && [ -n "$rs" ]; then
	set -- $cs $rs
	[ "$1" = 0 ] && [ "$4" = 0 ] && [ "$3" -le "$5" ] && ok=0
fi
check $ok "kube play runs pod.yaml's init containers, compose then record, each exiting 0 [podman $version]" "$work/play.txt"

diff -r "$host/groups/$group" "$group_dir" >"$work/group.diff" 2>&1
check $? "the group composed by the init container equals a compose on the host with the template's args [podman $version]" "$work/group.diff"

# its standard output (podman logs keeps stderr, render's notes, apart)
got=$(podman logs "$pod-record" 2>"$work/record.err")
printf 'record logged: %s\nrender on the host: %s\n' "$got" "$want" >"$work/record.txt"
[ "$got" = "$want" ]
check $? "the record container logs the digest of render on the host [podman $version]" "$work/record.txt"

echo "# note: the agent container under podman $version: $(podman inspect --format '{{.State.Status}}' "$pod-agent" 2>&1 | head -n1)$(grep -m1 -o 'error mounting .*' "$work/play.log" | sed 's/^/, /' | head -c 300)"
echo "# note: the claims are podman volumes: $(podman volume ls --format '{{.Name}}' | tr '\n' ' ')"
podman pod rm -f "$pod" >/dev/null 2>&1

# --- play 2: the probe ------------------------------------------------------------
# Each init container runs the probe with the template's securityContext
# and volumeMounts; its mount paths are its arguments.  It holds no double
# quote and no backslash: it goes into a YAML double-quoted string as is.
probe="echo uid \$(id -u) gid \$(id -g); grep -E '^(Groups|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs):' /proc/self/status; echo root mounted \$(grep -E '^([^ ]+ ){4}/ ' /proc/self/mountinfo | tail -n 1 | cut -d ' ' -f 6 | cut -d , -f 1); if (: >/.clawmd-probe) 2>/dev/null; then echo write / written; else echo write / refused; fi; for m; do if (: >\$m/.clawmd-probe) 2>/dev/null; then rm -f \$m/.clawmd-probe; echo write \$m written; else echo write \$m refused; fi; done"
sub_images | awk -v probe="$probe" '
	function flush() { if (cur != "") mounts[cur] = ms }
	NR == FNR {
		if (/^  initContainers:/) s = 1; else if (/^  [a-zA-Z]/) s = 0
		if (s && /^    - name: /) { flush(); cur = $3; ms = "" }
		if (s && /^        - name: /) mp = ""
		if (s && /^          mountPath: /) { mp = $2; ms = ms ", \"" mp "\"" }
		next
	}
	FNR == 1 { flush() }
	/^  initContainers:/ { s = 1 } /^  [a-zA-Z]/ && !/^  initContainers:/ { s = 0 }
	s && /^    - name: / { cur = $3 }
	s && /^      (args|command):/ { next }
	{ print }
	s && /^      image: / { print "      command: [\"/bin/sh\", \"-c\", \"" probe "\", \"probe\"" mounts[cur] "]" }
' "$yaml" - >"$work/probe.yaml"
timeout -k 10 300 podman kube play --network none "$work/probe.yaml" >"$work/probe-play.log" 2>&1
for c in $(awk '/^  initContainers:/ { s = 1; next } /^  [a-zA-Z]/ { s = 0 } s && /^    - name: / { print $3 }' "$yaml"); do
	echo "== $c"
	podman logs "$pod-$c" 2>&1
done >"$work/probe.txt"
podman pod rm -f "$pod" >/dev/null 2>&1
uid=$(sed -n 's/^    runAsUser: //p' "$yaml" | head -n1)
gid=$(sed -n 's/^    runAsGroup: //p' "$yaml" | head -n1)
ninit=$(grep -c '^== ' "$work/probe.txt")
# every init container printed LINE (its count is the containers')
each() { [ "$ninit" -gt 0 ] && [ "$(grep -cxE "$1" "$work/probe.txt")" = "$ninit" ]; }
each "uid $uid gid $gid"
check $? "runAsUser $uid, runAsGroup $gid: id -u and id -g in each init container [podman $version]" "$work/probe.txt"
# uid 1000 cannot write to / on a writable root either: the mount says it
each 'write / refused' && each 'root mounted ro'
check $? "readOnlyRootFilesystem: / is mounted read-only and a write to it fails in each init container [podman $version]" "$work/probe.txt"
each 'CapPrm:[[:space:]]+0+' && each 'CapEff:[[:space:]]+0+' && each 'CapBnd:[[:space:]]+0+' &&
	each 'CapAmb:[[:space:]]+0+' && each 'NoNewPrivs:[[:space:]]+1'
check $? "capabilities drop ALL and allowPrivilegeEscalation false: no capability in any set, NoNewPrivs 1, in each init container [podman $version]" "$work/probe.txt"
# readOnly: the template's readOnly mounts refuse a write, the others take one
awk '/^  initContainers:/ { s = 1; next } /^  [a-zA-Z]/ { s = 0 }
	s && /^    - name: / { c = $3 } s && /^          mountPath: / { mp = $2; print c, mp, "written" }
	s && /^          readOnly: true/ { print c, mp, "refused" }' "$yaml" |
	awk '{ last[$1 " " $2] = $3 } END { for (k in last) print k, last[k] }' | sort >"$work/ro.want"
awk '/^== / { c = $2; next } /^write \/[^ ]/ { print c, $2, $3 }' "$work/probe.txt" | sort >"$work/ro.got"
[ -s "$work/ro.want" ] && diff -u "$work/ro.want" "$work/ro.got" >"$work/ro.diff" 2>&1
check $? "readOnly: a write to each readOnly mount fails, to each other mount succeeds, in each init container [podman $version]" "$work/ro.diff"

# --- play 3: what the engine does with the fields it does not honour ---------
# The template's fsGroup equals its runAsGroup, and its runAsUser is not 0,
# so neither tells: a pod of its own, with fsGroup 2000 and a container
# that asks for uid 0 under runAsNonRoot (Kubernetes refuses to start it).
cat >"$work/fields.yaml" <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: clawmd-fields
spec:
  restartPolicy: Never
  securityContext:
    runAsNonRoot: true
    runAsUser: 1000
    runAsGroup: 1000
    fsGroup: 2000
  containers:
    - name: fsgroup
      image: $image
      command: ["/bin/sh", "-c", "id -G; stat -c %g /v"]
      volumeMounts:
        - {name: v, mountPath: /v}
    - name: root
      image: $image
      securityContext:
        runAsUser: 0
      command: ["/bin/sh", "-c", "id -u"]
  volumes:
    - name: v
      persistentVolumeClaim:
        claimName: clawmd-fields
EOF
timeout -k 10 300 podman kube play --network none "$work/fields.yaml" >"$work/fields.log" 2>&1
i=0
while [ $i -lt 50 ] && [ "$(podman inspect --format '{{.State.Status}}' "clawmd-fields-fsgroup" "clawmd-fields-root" 2>/dev/null | sort -u)" != exited ]; do
	sleep 0.2
	i=$((i + 1))
done
fg=$(podman logs clawmd-fields-fsgroup 2>&1 | tr '\n' ' ')
case " $fg " in *" 2000 "*) fgw=honoured ;; *) fgw=ignored ;; esac
echo "# note: fsGroup 2000 under podman $version: $fgw (the groups, then the volume's group: $fg)"
ru=$(podman logs clawmd-fields-root 2>&1 | head -n1)
if [ "$ru" = 0 ]; then rw='ignored: the container ran as uid 0'; else rw="the container did not run as uid 0 ($ru)"; fi
echo "# note: runAsNonRoot with runAsUser 0 under podman $version: $rw"
podman pod rm -f clawmd-fields >/dev/null 2>&1

[ "$failed" = 0 ]
