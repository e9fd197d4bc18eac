#!/bin/sh
# Install one OpenCode release from npm into a cache, for make e2e.
#
#   install.sh CACHE_DIR VERSION
#
# The npm package opencode-ai is a small launcher whose postinstall picks the
# native binary of an optional dependency, one package per platform.  This
# installs that platform package alone (opencode-linux-x64, or its -baseline
# build on a CPU without AVX2, or the -musl builds on a musl libc), with
# --ignore-scripts: nothing of the package runs at install time.  Writes
# CACHE_DIR/VERSION/opencode, a symlink to the binary, and prints its path.
# A second call reuses it without the network.
set -eu
. "$(dirname "$0")/../lib/install.sh"
v=$2
install_begin "$1" "$v" opencode 1.18.33
case $(uname -m) in
x86_64) arch=x64 ;;
aarch64 | arm64) arch=arm64 ;;
*) echo "install.sh: no OpenCode package for $(uname -m)" >&2; exit 1 ;;
esac
pkg=opencode-linux-$arch
if [ "$arch" = x64 ] && ! grep -q '^flags.*\bavx2\b' /proc/cpuinfo 2>/dev/null; then
	pkg=$pkg-baseline
fi
if ! ldd --version 2>&1 | grep -qi -e glibc -e 'gnu libc'; then
	pkg=$pkg-musl
fi
npm_install "$pkg" "$v"
[ -f "$mod/bin/opencode" ] || { echo "install.sh: $pkg@$v has no bin/opencode" >&2; exit 1; }
chmod +x "$mod/bin/opencode"
ln -s "node_modules/$pkg/bin/opencode" "$dir.tmp/opencode"
install_end opencode
