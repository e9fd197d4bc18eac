#!/bin/sh
# Install one Claude Code release from npm into a cache, for make e2e.
#
#   install.sh CACHE_DIR VERSION
#
# Writes CACHE_DIR/VERSION/claude, a launcher (node + cli.js for the
# JavaScript releases up to 2.1.112, the native binary of the platform
# package from 2.1.113), and prints its path.  A second call reuses it.
set -eu
mkdir -p "$1"
cache=$(cd "$1" && pwd -P)
v=$2
case $v in
*[!0-9.]* | '' | .* | *.) echo "install.sh: '$v' is not a release number (like 2.1.330)" >&2; exit 2 ;;
esac
dir=$cache/$v
if [ -x "$dir/claude" ]; then
	echo "$dir/claude"
	exit 0
fi
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
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
# --ignore-scripts: nothing from the package runs at install time;
# --omit=optional: the JavaScript package's image libraries are not needed.
if ! npm install --prefix "$dir.tmp" --no-save --no-package-lock --ignore-scripts \
	--omit=optional --no-audit --no-fund --loglevel=error "$pkg@$v" >"$dir.tmp.log" 2>&1; then
	echo "install.sh: npm install $pkg@$v failed:" >&2
	grep -v 'Unknown user config' "$dir.tmp.log" | tail -n 5 >&2
	exit 1
fi
mod=$dir.tmp/node_modules/$pkg
got=$(node -p 'require(process.argv[1]).version' "$mod/package.json")
[ "$got" = "$v" ] || { echo "install.sh: npm installed $pkg $got, not $v" >&2; exit 1; }
if [ "$pkg" = @anthropic-ai/claude-code ]; then
	[ -f "$mod/cli.js" ] || { echo "install.sh: $pkg@$v has no cli.js" >&2; exit 1; }
	printf '#!/bin/sh\nexec %s %s "$@"\n' "$(command -v node)" "$dir/node_modules/$pkg/cli.js" >"$dir.tmp/claude"
else
	[ -x "$mod/claude" ] || { echo "install.sh: $pkg@$v has no claude binary" >&2; exit 1; }
	ln -s "node_modules/$pkg/claude" "$dir.tmp/claude"
fi
chmod +x "$dir.tmp/claude" 2>/dev/null || true
rm -rf "$dir"
mv "$dir.tmp" "$dir"
mv "$dir.tmp.log" "$dir/npm.log"
echo "$dir/claude"
