#!/bin/sh
# make e2e-fresh: the README's promise, kept.  Its "From nothing" block,
# literally (only the clone's address is this checkout's committed HEAD,
# mounted read-only and copied in as the user's), in fresh Debian 12 containers made from a debootstrap
# --variant=minbase root file system (nothing but apt's sources; /tmp on
# the container's overlayfs, as in any Docker or CI container), in a
# private dockerd (scripts/e2e/engine.sh):
#
#   root   in a root shell, TERM unset, the clone in /srv/x.y/clawmd+work/;
#          then the README's "As a Debian package" block (make deb, its
#          tests on), and the package installed answers
#   user   as a user with sudo (no password), TERM=dumb, the clone in
#          ~/src/deep.er/; then the Debian package block too
#
#   scripts/e2e/fresh.sh [root] [user]     (default: both)
#
# Prints TAP: per run, each command of the block; then what make check's
# closing line says: all passed, the Node package tested (t60-node not
# skipped), and every skip named with a reason.  Each run's whole output is
# in build/e2e/fresh/RUN.log.  FRESH_KEEP=1 keeps the containers.
# Needs root (a private dockerd); minutes: apt-get downloads about 500 MB
# into each container (build/e2e/fresh/apt-archives-RUN caches the .debs
# between runs; the package lists are fetched fresh every time).  An engine
# answering at $DOCKER_HOST is used, else a private one is started.
# Exit status: 0 all passed, 1 a run failed, 2 the harness could not run.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd -P)
E=$top/build/e2e
F=$E/fresh
bail() {
	echo "Bail out! $*"
	exit 2
}
[ "$(id -u)" = 0 ] || bail "make e2e-fresh needs root: it starts a private container engine"
command -v git >/dev/null || bail "git is needed to clone this checkout"
mkdir -p "$F" || bail "cannot create $F"

# The README's blocks, between their markers, fences dropped.
block() { # MARKER
	awk -v m="$1" '$0 ~ "^<!-- " m "[: ]" { f = 1; next } $0 ~ "^<!-- /" m " -->" { f = 0 } f' "$top/README.md" |
		sed '/^```/d'
}
fresh=$(block fresh-machine)
deb=$(block deb-package)
[ -n "$fresh" ] || bail "no <!-- fresh-machine --> block in README.md"
[ -n "$deb" ] || bail "no <!-- deb-package --> block in README.md"
printf '%s\n' "$fresh" | grep -q '^git clone https://[^ ]*' || bail "the fresh-machine block has no 'git clone https://...' line"
# The clone's address: this checkout's HEAD, as a bare repository.
fresh=$(printf '%s\n' "$fresh" | sed 's|^git clone https://[^ ]*|git clone /srv/clawmd.git|')
rm -rf "$F/clawmd.git.new"
git clone -q --bare "$top" "$F/clawmd.git.new" || bail "git clone --bare $top failed"
rm -rf "$F/clawmd.git" && mv "$F/clawmd.git.new" "$F/clawmd.git"
git -C "$F/clawmd.git" symbolic-ref HEAD "refs/heads/$(git -C "$top" rev-parse --abbrev-ref HEAD)" 2>/dev/null

# shellcheck source=engine.sh
. "$top/scripts/e2e/engine.sh"
trap 'engine_stop' EXIT
trap 'exit 2' INT TERM HUP
# An engine that answers at $DOCKER_HOST is used (a run beside another);
# else a private dockerd of our own.
if [ -z "${DOCKER_HOST:-}" ] || ! docker version >/dev/null 2>&1; then
	engine_start "$E/engine" || bail "no engine: $engine_why"
else
	engine_cache=$E/engine
	engine_name="docker $(docker version --format '{{.Server.Version}}' 2>/dev/null) at $DOCKER_HOST"
fi
engine_base_image || bail "$engine_why"
echo "# engine: $engine_name; image clawmd-base:bookworm (debootstrap --variant=minbase); $(git -C "$top" log -1 --format='%h %s' | cut -c1-70)"

n=0
failed=0
report() { # STATUS NAME [DIAG]
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
		[ -z "${3:-}" ] || printf '%s\n' "$3" | sed 's/^/#   /'
	fi
}

# script BLOCK: the block as a bash -e script that marks each command in
# the log before it runs ("@@step SECONDS COMMAND"), and its end ("@@end");
# each command stops the script when it fails, as a reader would stop.
script() {
	printf '%s\n' "$1" | awk '
		/^[^#[:space:]]/ { c = $0; sub(/ +#.*/, "", c); q = c; gsub(/\047/, "\047\\\047\047", q)
			printf "printf \"@@step %%s %%s\\n\" \"$(date +%%s)\" \047%s\047\n", q
			# bash -e overlooks a failure left of && (git clone ... && cd)
			print c " || exit $?"; next }
		{ print }
		END { print "printf \"@@end %s\\n\" \"$(date +%s)\"" }'
}

# run_case NAME USER DIR ENV SCRIPT: in a fresh container, as USER, in DIR.
run_case() {
	name=$1 user=$2 dir=$3 envs=$4 body=$5
	c=clawmd-fresh-$name-$$
	log=$F/$name.log
	: >"$log"
	docker rm -f "$c" >/dev/null 2>&1
	# The run's apt archive cache is kept between runs (one a run: apt
	# locks it); nothing else of the host is shared.
	mkdir -p "$F/apt-archives-$name/partial"
	docker run -d --name "$c" --network host \
		-v "$F/clawmd.git:/src/clawmd.git:ro" -v "$F/apt-archives-$name:/var/cache/apt/archives" \
		clawmd-base:bookworm sleep infinity >>"$log" 2>&1 ||
		{ report 1 "$name: a fresh container" "$(tail -n 3 "$log")"; return; }
	echo "# $name: as $user in '$dir'; /tmp on $(docker exec "$c" stat -f -c %T /tmp), /dev/shm on $(docker exec "$c" stat -f -c %T /dev/shm); env: ${envs:-none}"
	if [ "$user" != root ]; then
		# A user with sudo: what the README's "as a user with sudo" means;
		# then apt's lists gone again (the README's own update fetches them).
		docker exec "$c" sh -c "apt-get update -qq && apt-get install -y -qq sudo >/dev/null &&
			useradd -m -s /bin/bash $user && echo '$user ALL=(ALL) NOPASSWD:ALL' >/etc/sudoers.d/$user &&
			rm -rf /var/lib/apt/lists/*" >>"$log" 2>&1 ||
			{ report 1 "$name: a user with sudo" "$(tail -n 5 "$log")"; return; }
	fi
	# The clone's origin, the user's own (git refuses a repository of
	# another owner), and the directory the block starts in.
	docker exec "$c" sh -c "cp -R /src/clawmd.git /srv/clawmd.git && chown -R $user /srv/clawmd.git" >>"$log" 2>&1
	docker exec -u "$user" "$c" mkdir -p "$dir" >>"$log" 2>&1
	# shellcheck disable=SC2086
	docker exec -u "$user" -w "$dir" $envs "$c" bash -ec "$body" >>"$log" 2>&1
	st=$?
	# One test a command: passed when the next one started.
	awk -v st="$st" -v name="$name" '
		function close_step(t, ok) { if (cmd != "") print (ok ? "ok" : "fail") "\t" name ": " cmd " (" t - t0 " s" (ok ? "" : ", exit " st) ")" }
		/^@@step / { close_step($2, 1); t0 = $2; cmd = $0; sub(/^@@step [0-9]+ /, "", cmd); next }
		/^@@end / { close_step($2, 1); cmd = ""; end = 1; next }
		END {
			if (cmd != "") { "date +%s" | getline now; close_step(now, 0) }
			else if (!end) print "fail\t" name ": the block (exit " st ")"
		}' "$log" >"$F/$name.steps"
	while IFS='	' read -r k text; do
		case $k in
		ok) report 0 "$text" ;;
		*) report 1 "$text" "$(grep -v '^@@' "$log" | tail -n 15)" ;;
		esac
	done <"$F/$name.steps"
	# What make check said at its end.
	closing=$(grep '^check: all passed' "$log" | tail -n 1)
	if [ -n "$closing" ]; then
		echo "# $name: $closing"
		case $closing in *t60-node*) report 1 "$name: the Node package tested" "$closing" ;;
		*) report 0 "$name: the Node package tested (t60-node not skipped)" ;; esac
		case $closing in *"; nothing skipped"* | *"; skipped: "*) report 0 "$name: the closing line names the skips" ;;
		*) report 1 "$name: the closing line names the skips" "$closing" ;; esac
	fi
	grep '^install-deps: [0-9]* packages\? with' "$log" | sed "s/^/# $name: /"
	[ "${FRESH_KEEP:-}" = 1 ] || docker rm -f "$c" >/dev/null 2>&1
}

runs=${*:-root user}
for r in $runs; do
	case $r in
	root)
		run_case root root /srv/x.y/clawmd+work '' "$(script "$fresh
$deb")"
		;;
	user)
		run_case user dev /home/dev/src/deep.er '-e TERM=dumb' "$(script "$fresh
$deb")"
		;;
	*) bail "unknown run '$r' (root or user)" ;;
	esac
done
echo "1..$n"
[ "$failed" = 0 ]
