#!/bin/sh
# Install the Debian packages clawmd builds and tests with, but only those that
# are missing. Safe to run repeatedly; the Makefile runs it before every build
# that cannot find a dependency through pkg-config.
#
# Usage: scripts/install-deps.sh [--check] [build|test|bench]
#   --check  install nothing: name what is missing and how to install it,
#            exit 1 (make INSTALL_DEPS=no; the npm install's build)
#   build  the four libraries and pkg-config (default)
#   test   build + what `make check` uses (strace for fault injection, clang
#          for the fuzzers, perl for prove, python3 and git in some tests,
#          chromium to render clawmd report's page headless in t66)
#   bench  test + hyperfine
set -eu

check=
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
what=${1:-build}
pkgs="pkg-config libgit2-dev libyaml-dev libcjson-dev libmd4c-dev gcc make"
case $what in
build) ;;
test) pkgs="$pkgs strace procps clang libclang-rt-dev perl python3 git chromium" ;;
bench) pkgs="$pkgs strace procps clang libclang-rt-dev perl python3 git hyperfine" ;;
*) echo "usage: $0 [build|test|bench]" >&2; exit 2 ;;
esac

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
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
echo "install-deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >&2
