#!/bin/sh
# Install one Copilot CLI release from npm into a cache, for make e2e.
#
#   install.sh CACHE_DIR VERSION
#
# npm @github/copilot is a loader for a native binary (it embeds its own
# Node) in a package per platform; this installs that platform package
# alone (@github/copilot-linux-x64, or -arm64, or the linuxmusl builds on
# a musl libc), with --ignore-scripts.  Writes CACHE_DIR/VERSION/copilot, a
# symlink to the binary, and prints its path; a second call reuses it
# without the network.  The binary unpacks its application (235 MB, with
# native add-ons) into $XDG_CACHE_HOME/copilot at its first start: that is
# done here once, into CACHE_DIR/VERSION/cache, which inner.sh names, so a
# run neither unpacks it again nor needs an executable HOME (the
# container's tmpfs HOME is noexec: "failed to map segment from shared
# object").
set -eu
. "$(dirname "$0")/../lib/install.sh"
v=$2
install_begin "$1" "$v" copilot 1.0.102
case $(uname -m) in
x86_64) arch=x64 ;;
aarch64 | arm64) arch=arm64 ;;
*) echo "install.sh: no Copilot CLI package for $(uname -m)" >&2; exit 1 ;;
esac
libc=linux
ldd --version 2>&1 | grep -qi -e glibc -e 'gnu libc' || libc=linuxmusl
pkg=@github/copilot-$libc-$arch
npm_install "$pkg" "$v"
[ -f "$mod/copilot" ] || { echo "install.sh: $pkg@$v has no copilot binary" >&2; exit 1; }
chmod +x "$mod/copilot"
ln -s "node_modules/$pkg/copilot" "$dir.tmp/copilot"
mkdir -p "$dir.tmp/cache" "$dir.tmp/home"
if ! env -i PATH=/usr/bin:/bin HOME="$dir.tmp/home" XDG_CACHE_HOME="$dir.tmp/cache" COPILOT_OFFLINE=true \
	COPILOT_AUTO_UPDATE=false "$mod/copilot" --version >"$dir.tmp/unpack.log" 2>&1 ||
	[ ! -d "$dir.tmp/cache/copilot/pkg" ]; then
	echo "install.sh: $pkg@$v did not unpack its application:" >&2
	tail -n 5 "$dir.tmp/unpack.log" >&2
	exit 1
fi
rm -rf "$dir.tmp/home"
install_end copilot
