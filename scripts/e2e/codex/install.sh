#!/bin/sh
# Install one Codex CLI release from npm into a cache, for make e2e.
#
#   install.sh CACHE_DIR VERSION
#
# Installs @openai/codex@VERSION (its optional dependency for this platform,
# @openai/codex-linux-x64 or -arm64, carries the native binary) and writes
# CACHE_DIR/VERSION/codex, a launcher that runs the package's bin/codex.js
# with node, as `npm install -g` would; prints the launcher's path.  A
# second call reuses the install.
set -eu
. "$(dirname "$0")/../lib/install.sh"
v=$2
install_begin "$1" "$v" codex 0.169.0
case $(uname -m) in
x86_64) triple=x86_64-unknown-linux-musl arch=x64 ;;
aarch64 | arm64) triple=aarch64-unknown-linux-musl arch=arm64 ;;
*) echo "install.sh: no native Codex package for $(uname -m)" >&2; exit 1 ;;
esac
pkg=@openai/codex
# no --omit=optional: the binary comes in the platform package, an
# optional dependency (the package has no install script).
npm_install "$pkg" "$v"
[ -f "$mod/bin/codex.js" ] || { echo "install.sh: $pkg@$v has no bin/codex.js" >&2; exit 1; }
[ -x "$dir.tmp/node_modules/$pkg-linux-$arch/vendor/$triple/bin/codex" ] ||
	{ echo "install.sh: npm did not install $pkg-linux-$arch (the native binary of $pkg@$v)" >&2; exit 1; }
node_launcher "bin/codex.js" codex
chmod +x "$dir.tmp/codex"
install_end codex
