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
mkdir -p "$1"
cache=$(cd "$1" && pwd -P)
v=$2
case $v in
*[!0-9.]* | '' | .* | *.) echo "install.sh: '$v' is not a release number (like 1.18.33)" >&2; exit 2 ;;
esac
dir=$cache/$v
if [ -x "$dir/opencode" ]; then
	echo "$dir/opencode"
	exit 0
fi
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
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
if ! npm install --prefix "$dir.tmp" --no-save --no-package-lock --ignore-scripts \
	--no-audit --no-fund --loglevel=error "$pkg@$v" >"$dir.tmp.log" 2>&1; then
	echo "install.sh: npm install $pkg@$v failed:" >&2
	grep -v 'Unknown user config' "$dir.tmp.log" | tail -n 5 >&2
	exit 1
fi
mod=$dir.tmp/node_modules/$pkg
got=$(node -p 'require(process.argv[1]).version' "$mod/package.json")
[ "$got" = "$v" ] || { echo "install.sh: npm installed $pkg $got, not $v" >&2; exit 1; }
[ -f "$mod/bin/opencode" ] || { echo "install.sh: $pkg@$v has no bin/opencode" >&2; exit 1; }
chmod +x "$mod/bin/opencode"
ln -s "node_modules/$pkg/bin/opencode" "$dir.tmp/opencode"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
mv "$dir.tmp.log" "$dir/npm.log"
echo "$dir/opencode"
