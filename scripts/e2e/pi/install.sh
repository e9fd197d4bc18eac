#!/bin/sh
# Install one pi release from npm into a cache, for make e2e.
#
#   install.sh CACHE_DIR VERSION
#
# npm @earendil-works/pi-coding-agent (its entry script run with the Node
# of newer_node: pi needs 22.19 or later).  Its dependencies are resolved
# as of the day after the release (npm --before): a newer AWS SDK release
# whose own dependencies npm cannot find breaks a plain install of 1.5.2
# ("No matching version found for @aws-sdk/core@^3.981.2"); 1.6.0's own
# packages (@earendil-works/pi-ai and the others, pinned to 1.6.0) were
# published minutes before it, so the same rule installs it.  Writes
# CACHE_DIR/VERSION/pi, a launcher, and prints its path; a second call
# reuses it without the network.
set -eu
. "$(dirname "$0")/../lib/install.sh"
v=$2
install_begin "$1" "$v" pi 1.5.2
pkg=@earendil-works/pi-coding-agent
newer_node "$1/.."
published=$(npm view "$pkg@$v" "time[$v]" 2>/dev/null) || published=''
[ -n "$published" ] || { echo "install.sh: npm knows no $pkg@$v" >&2; exit 1; }
before=$(date -u -d "$published + 1 day" +%Y-%m-%dT%H:%M:%SZ)
npm_install "$pkg" "$v" --before="$before"
bin=$(node -p 'const p = require(process.argv[1]); typeof p.bin === "string" ? p.bin : p.bin.pi' "$mod/package.json")
[ -f "$mod/$bin" ] || { echo "install.sh: $pkg@$v has no $bin" >&2; exit 1; }
node_launcher "$bin" pi "$newer_node"
chmod +x "$dir.tmp/pi"
install_end pi
