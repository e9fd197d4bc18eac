#!/bin/sh
# Install one Gemini CLI release from npm into a cache, for make e2e.
#
#   install.sh CACHE_DIR VERSION
#
# Writes CACHE_DIR/VERSION/gemini, a launcher (node + the package's bundled
# entry script), and prints its path.  A second call reuses it, without
# the network.
set -eu
. "$(dirname "$0")/../lib/install.sh"
v=$2
install_begin "$1" "$v" gemini 0.61.0
pkg=@google/gemini-cli
# --omit=optional: the terminal and keychain add-ons are not needed headless.
npm_install "$pkg" "$v" --omit=optional
# the entry script the package's "bin" names
bin=$(node -p 'const p = require(process.argv[1]); typeof p.bin === "string" ? p.bin : p.bin.gemini' "$mod/package.json")
[ -f "$mod/$bin" ] || { echo "install.sh: $pkg@$v has no $bin" >&2; exit 1; }
node_launcher "$bin" gemini
chmod +x "$dir.tmp/gemini"
install_end gemini
