#!/bin/sh
# Install one Claude Code release from npm into a cache, for make e2e.
#
#   install.sh CACHE_DIR VERSION
#
# Writes CACHE_DIR/VERSION/claude, a launcher (node + cli.js for the
# JavaScript releases up to 2.1.112, the native binary of the platform
# package from 2.1.113), and prints its path.  A second call reuses it.
set -eu
. "$(dirname "$0")/../lib/install.sh"
v=$2
install_begin "$1" "$v" claude 2.1.330
first=$(printf '%s\n%s\n' "$v" 2.1.113 | sort -V | head -n1)
if [ "$first" = "$v" ] && [ "$v" != 2.1.113 ]; then
	pkg=@anthropic-ai/claude-code
else
	case $(uname -m) in
	x86_64) arch=x64 ;;
	aarch64 | arm64) arch=arm64 ;;
	*) echo "install.sh: no native Claude Code package for $(uname -m)" >&2; exit 1 ;;
	esac
	pkg=@anthropic-ai/claude-code-linux-$arch
fi
# --omit=optional: the JavaScript package's image libraries are not needed.
npm_install "$pkg" "$v" --omit=optional
if [ "$pkg" = @anthropic-ai/claude-code ]; then
	[ -f "$mod/cli.js" ] || { echo "install.sh: $pkg@$v has no cli.js" >&2; exit 1; }
	node_launcher "cli.js" claude
else
	[ -x "$mod/claude" ] || { echo "install.sh: $pkg@$v has no claude binary" >&2; exit 1; }
	ln -s "node_modules/$pkg/claude" "$dir.tmp/claude"
fi
chmod +x "$dir.tmp/claude" 2>/dev/null || true
install_end claude
