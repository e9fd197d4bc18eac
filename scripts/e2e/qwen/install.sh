#!/bin/sh
# Install one Qwen Code release from npm into a cache, for make e2e.
#
#   install.sh CACHE_DIR VERSION
#
# npm @qwen-code/qwen-code, its entry script run with the Node of
# newer_node (it needs 22 or later).  Writes CACHE_DIR/VERSION/qwen, a
# launcher, and prints its path; a second call reuses it without the
# network.
set -eu
. "$(dirname "$0")/../lib/install.sh"
v=$2
install_begin "$1" "$v" qwen 0.24.4
pkg=@qwen-code/qwen-code
newer_node "$1/.."
npm_install "$pkg" "$v"
bin=$(node -p 'const p = require(process.argv[1]); typeof p.bin === "string" ? p.bin : p.bin.qwen' "$mod/package.json")
[ -f "$mod/$bin" ] || { echo "install.sh: $pkg@$v has no $bin" >&2; exit 1; }
node_launcher "$bin" qwen "$newer_node"
chmod +x "$dir.tmp/qwen"
install_end qwen
