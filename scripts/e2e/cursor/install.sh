#!/bin/sh
# Install one release of the Cursor SDK from npm into a cache, for make e2e.
#
#   install.sh CACHE_DIR VERSION
#
# There is no Cursor agent CLI on npm; @cursor/sdk's local agent reads the
# workspace's rules and sends them to Cursor's backend, which run.mjs
# drives.  Writes CACHE_DIR/VERSION/cursor, a launcher (the Node of
# newer_node, 22.13 or later, running run.mjs with the SDK's directory;
# --version prints the SDK's), and prints its path; a second call reuses
# it without the network.  The launcher names the ripgrep of the SDK's
# platform package (CURSOR_RIPGREP_PATH): without one on PATH the SDK
# cannot list the workspace and sends only the git root's rules.
set -eu
. "$(dirname "$0")/../lib/install.sh"
v=$2
install_begin "$1" "$v" cursor 1.0.32
pkg=@cursor/sdk
newer_node "$1/.."
npm_install "$pkg" "$v"
[ -f "$mod/dist/esm/index.js" ] || { echo "install.sh: $pkg@$v has no dist/esm/index.js" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd -P)
rg=$(find "$dir.tmp/node_modules/@cursor" -path "*/sdk-*/bin/rg" -type f | head -n1)
[ -n "$rg" ] || { echo "install.sh: $pkg@$v brought no ripgrep for this platform" >&2; exit 1; }
rg=$dir/${rg#"$dir.tmp/"}
cat >"$dir.tmp/cursor" <<EOS
#!/bin/sh
if [ "\${1:-}" = --version ]; then echo "@cursor/sdk $v"; exit 0; fi
CURSOR_RIPGREP_PATH=$rg exec $newer_node $here/run.mjs $dir/node_modules/$pkg "\$@"
EOS
chmod +x "$dir.tmp/cursor"
install_end cursor
