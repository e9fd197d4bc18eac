#!/bin/sh
# Install the Debian packages clawmd builds and tests with, but only those that
# are missing. Safe to run repeatedly; the Makefile runs it before every build
# that cannot find a dependency through pkg-config, and make test and make
# check run it with `test`.
#
# Usage: scripts/install-deps.sh [--check] [build|test|bench]
#   --check  install nothing: name what is missing and how to install it,
#            exit 1 (make INSTALL_DEPS=no; the npm install's build)
#   build  the four libraries, pkg-config, gcc and make (default)
#   test   build + what `make check` uses: strace (fault injection), procps,
#          clang and libclang-rt-dev (the fuzzers), perl (prove), python3 and
#          git (some tests), chromium (t66 renders clawmd report's page
#          headless), and Node for the Node package's tests: nodejs,
#          libnode-dev (node_api.h) and npm (t55 installs the SARIF
#          Multitool with it), each only when no node, Node headers or npm is
#          found (a Node installed otherwise, nvm or NodeSource, is used)
#   bench  test + hyperfine
#
# Before it installs, it says what and how much (packages, download, disk);
# while apt-get runs, it shows its progress (in place on a terminal, a line
# every 10% elsewhere); apt-get's own output goes to build/install-deps.log.
set -eu

check=
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
what=${1:-build}
pkgs="pkg-config libgit2-dev libyaml-dev libcjson-dev libmd4c-dev gcc make"
case $what in
build) why="to build clawmd" ;;
test)
	why="for make check"
	pkgs="$pkgs strace procps clang libclang-rt-dev perl python3 git chromium"
	;;
bench)
	why="for make bench"
	pkgs="$pkgs strace procps clang libclang-rt-dev perl python3 git hyperfine"
	;;
*) echo "usage: $0 [--check] [build|test|bench]" >&2; exit 2 ;;
esac

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }
missing=
for p in $pkgs; do
	installed "$p" || missing="$missing $p"
done
# Node, for the tests: whatever node is first on PATH, with its headers
# where bindings/node/node.mk looks for them, and npm; Debian's packages
# only for what is not there.
if [ "$what" != build ]; then
	if command -v node >/dev/null 2>&1; then
		inc=$(dirname "$(node -p process.execPath 2>/dev/null || echo /nonexistent/bin/node)")/../include/node
		if ! [ -f "$inc/node_api.h" ] && ! [ -f /usr/include/node/node_api.h ] &&
			! [ -f /usr/local/include/node/node_api.h ]; then
			missing="$missing libnode-dev"
		fi
	else
		missing="$missing nodejs libnode-dev"
	fi
	command -v npm >/dev/null 2>&1 || missing="$missing npm"
fi
[ -z "$missing" ] && exit 0
if [ -n "$check" ]; then
	echo "install-deps: missing:$missing (Debian, Ubuntu: sudo apt-get install$missing)" >&2
	exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
	echo "install-deps: missing:$missing; install them with your package manager" >&2
	exit 1
fi
sudo=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || {
		echo "install-deps: need root (or sudo) to install:$missing" >&2
		exit 1
	}
	sudo=sudo
fi
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$top/build"
log=$top/build/install-deps.log
: >"$log"
aptget() { $sudo env DEBIAN_FRONTEND=noninteractive LC_ALL=C apt-get "$@"; }

echo "install-deps: $why:$missing; first apt-get update (log: build/install-deps.log)" >&2
aptget update -q >>"$log" 2>&1 || {
	echo "install-deps: apt-get update failed:" >&2
	tail -n 5 "$log" >&2
	exit 1
}
# What it will take: the packages with their dependencies (a simulation),
# what is left to download, and the disk space, before anything is done.
# shellcheck disable=SC2086
if ! plan=$(LC_ALL=C apt-get -s install --no-install-recommends $missing 2>>"$log"); then
	echo "install-deps: apt-get cannot install$missing:" >&2
	# shellcheck disable=SC2086
	LC_ALL=C apt-get -s install --no-install-recommends $missing 2>&1 | grep '^E:' >&2
	exit 1
fi
new=$(printf '%s\n' "$plan" | awk '/^Inst / { print $2 }')
n=$(printf '%s\n' "$new" | grep -c . || true)
# shellcheck disable=SC2086
dl=$(LC_ALL=C apt-get install -qq --print-uris --no-install-recommends $missing 2>/dev/null |
	awk '{ s += $3 } END { printf "%.1f", s / 1000000 }')
# shellcheck disable=SC2086
disk=$(apt-cache show --no-all-versions $new 2>/dev/null |
	awk '/^Installed-Size:/ { s += $2 } END { printf "%.1f", s / 1000 }')
pk=packages
[ "$n" = 1 ] && pk=package
echo "install-deps: $n $pk with their dependencies: $dl MB to download, $disk MB on disk" >&2

# apt-get's status lines (APT::Status-Fd, on its stdout) make the progress;
# everything else it and dpkg print goes to the log.
tty=
[ -t 2 ] && tty=1
st=0
# shellcheck disable=SC2086
{ aptget install -y -q --no-install-recommends -o APT::Status-Fd=1 $missing 2>>"$log" || echo "rc:$?"; } |
	awk -v logf="$log" -v tty="$tty" -v n="$n" -v pk="$pk" -F: '
	function show(phase, pct,   step) {
		if (tty) { printf "\rinstall-deps: %s %3d%%", phase, pct > "/dev/stderr"; shown = 1; return }
		step = int(pct / 10) * 10
		if (phase != last || step > laststep) {
			printf "install-deps: %s %d%%\n", phase, step > "/dev/stderr"
			last = phase; laststep = step
		}
	}
	$1 == "dlstatus" { show("downloading " n " " pk, $3); next }
	$1 == "pmstatus" { # pmstatus:PACKAGE[:ARCH]:PERCENT:MESSAGE
		for (i = 3; i <= NF && $i !~ /^[0-9.]+$/; i++);
		show("installing " n " " pk, $i); next }
	$1 == "rc" { rc = $2; next }
	{ print >>logf; fflush(logf) }
	END {
		if (shown) printf "\n" > "/dev/stderr"
		exit rc
	}' || st=$?
if [ "$st" != 0 ]; then
	echo "install-deps: apt-get install failed (exit $st); its errors and the end of build/install-deps.log:" >&2
	{ grep '^E: ' "$log" | tail -n 5; tail -n 5 "$log"; } >&2
	exit 1
fi
echo "install-deps: installed$missing" >&2
