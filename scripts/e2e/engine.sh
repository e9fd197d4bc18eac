# engine.sh - a private container engine for make e2e and make image,
# sourced (POSIX sh).  Nothing of the host's is used or changed beyond
# installing Debian's docker.io (and debootstrap) when they are missing:
# the daemon runs on paths of its own under a cache directory, with no
# bridge, no iptables rules and no userland proxy (containers use the host's
# network, so the loopback mock is reachable), and is stopped by its pid.
#
#   . scripts/e2e/engine.sh
#   engine_start CACHE || echo "$engine_why"   # sets DOCKER_HOST, engine_name
#   engine_base_image                          # clawmd-base:bookworm, cached
#   docker run ...
#   engine_stop                                # also at exit (trap)
#
# Images never come from a registry: the base is a Debian root file system
# made with debootstrap (cached in CACHE/rootfs, about a minute the first
# time) and imported (docker import); images built on it run apt-get with
# the host's network.  The daemon's data root (CACHE/data) keeps them
# between runs.
#
# Environment: E2E_ENGINE=none skips the engine (the caller falls back).

engine_pid=''
engine_name=''
engine_why=''
engine_bridge_before=''

# engine_install PKG...: apt-get install, quietly, with its log in the cache.
engine_install() {
	command -v apt-get >/dev/null || { engine_why="no apt-get to install $*"; return 1; }
	echo "# installing $* (apt-get, log in $engine_cache/apt.log)" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" \
		>"$engine_cache/apt.log" 2>&1 ||
		{ engine_why="apt-get install $* failed (see $engine_cache/apt.log)"; return 1; }
}

engine_start() {
	engine_cache=$1
	if [ "${E2E_ENGINE:-}" = none ]; then
		engine_why="E2E_ENGINE=none"
		return 1
	fi
	[ "$(id -u)" = 0 ] || { engine_why="a private dockerd needs root"; return 1; }
	mkdir -p "$engine_cache/data" "$engine_cache/exec" || { engine_why="cannot create $engine_cache"; return 1; }
	# One daemon per cache: a second run waits for none, it says so.  The
	# lock is held (fd 9) until the shell exits.
	exec 9>"$engine_cache/lock"
	if ! flock -n 9; then
		engine_why="another run holds the engine in $engine_cache"
		return 1
	fi
	if ! command -v dockerd >/dev/null || ! command -v docker >/dev/null; then
		engine_install docker.io || return 1
	fi
	# The socket path must stay under the kernel's 108 bytes (containerd's
	# lives in the exec root too).
	sock=$engine_cache/docker.sock
	if [ ${#sock} -gt 90 ]; then
		engine_why="the cache path $engine_cache is too long for a socket"
		return 1
	fi
	# A daemon of an earlier run of ours that was not stopped (a kill -9):
	# ours by its pid file and its data root, and no run holds the lock.
	if [ -s "$engine_cache/docker.pid" ]; then
		old=$(cat "$engine_cache/docker.pid")
		if tr '\0' ' ' <"/proc/$old/cmdline" 2>/dev/null | grep -q -- "--data-root $engine_cache/data"; then
			kill "$old" 2>/dev/null
			i=0
			while kill -0 "$old" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
		fi
		rm -f "$engine_cache/docker.pid"
	fi
	rm -f "$sock"
	ip link show docker0 >/dev/null 2>&1 && engine_bridge_before=yes
	dockerd --data-root "$engine_cache/data" --exec-root "$engine_cache/exec" \
		--pidfile "$engine_cache/docker.pid" -H "unix://$sock" \
		--bridge=none --iptables=false --ip-masq=false --userland-proxy=false \
		--log-level=warn >"$engine_cache/dockerd.log" 2>&1 &
	engine_pid=$!
	export DOCKER_HOST="unix://$sock"
	i=0
	until docker version >/dev/null 2>&1; do
		if ! kill -0 "$engine_pid" 2>/dev/null || [ $i -ge 150 ]; then
			engine_why="dockerd did not start: $(tail -n 3 "$engine_cache/dockerd.log" | tr '\n' ' ')"
			engine_stop
			return 1
		fi
		sleep 0.2
		i=$((i + 1))
	done
	engine_name="docker $(docker version --format '{{.Server.Version}}' 2>/dev/null)"
	return 0
}

engine_stop() {
	[ -n "$engine_pid" ] || return 0
	kill "$engine_pid" 2>/dev/null
	i=0
	while kill -0 "$engine_pid" 2>/dev/null && [ $i -lt 150 ]; do sleep 0.2; i=$((i + 1)); done
	kill -9 "$engine_pid" 2>/dev/null
	wait "$engine_pid" 2>/dev/null
	engine_pid=''
	# Started with --bridge=none and --iptables=false it makes neither; a
	# bridge that appeared anyway is removed (never one that was there).
	if [ -z "$engine_bridge_before" ] && ip link show docker0 >/dev/null 2>&1; then
		ip link delete docker0 2>/dev/null
	fi
	# dockerd leaves the namespace files it bind-mounted in its exec root
	# (netns/default, the host network's sandbox) behind when it exits:
	# they go with it, deepest first, so that nothing of the run stays
	# mounted (and the cache can be removed).
	awk -v p="$engine_cache/exec/" 'index($2, p) == 1 { print $2 }' /proc/self/mounts |
		sort -r | while read -r m; do
			umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
		done
	rm -f "$engine_cache/docker.sock" "$engine_cache/docker.pid"
}

# engine_base_image: clawmd-base:bookworm, a Debian root file system made
# with debootstrap --variant=minbase (CACHE/rootfs, once) and imported.
engine_base_image() {
	docker image inspect clawmd-base:bookworm >/dev/null 2>&1 && return 0
	if [ ! -d "$engine_cache/rootfs" ]; then
		command -v debootstrap >/dev/null || engine_install debootstrap || return 1
		echo "# debootstrap --variant=minbase bookworm (once; log in $engine_cache/debootstrap.log)" >&2
		rm -rf "$engine_cache/rootfs.tmp"
		debootstrap --variant=minbase bookworm "$engine_cache/rootfs.tmp" \
			"${E2E_DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$engine_cache/debootstrap.log" 2>&1 ||
			{ engine_why="debootstrap failed (see $engine_cache/debootstrap.log)"; return 1; }
		mv "$engine_cache/rootfs.tmp" "$engine_cache/rootfs"
	fi
	tar -C "$engine_cache/rootfs" -c . | docker import - clawmd-base:bookworm >/dev/null ||
		{ engine_why="docker import of $engine_cache/rootfs failed"; return 1; }
}

# engine_build TAG DOCKERFILE [CONTEXT]: docker build, unless TAG (which
# names the Dockerfile's digest) is there already; RUN steps get the
# host's network (no bridge exists).
engine_build() {
	docker image inspect "$1" >/dev/null 2>&1 && return 0
	docker build -q --network host -t "$1" -f "$2" "${3:-$(dirname "$2")}" >"$engine_cache/build.log" 2>&1 ||
		{ engine_why="docker build of $1 failed: $(tail -n 5 "$engine_cache/build.log" | tr '\n' ' ')"; return 1; }
}
