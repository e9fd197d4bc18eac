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
mkdir -p "$1"
cache=$(cd "$1" && pwd -P)
v=$2
case $v in
*[!0-9.]* | '' | .* | *.) echo "install.sh: '$v' is not a release number (like 0.169.0)" >&2; exit 2 ;;
esac
dir=$cache/$v
if [ -x "$dir/codex" ]; then
	echo "$dir/codex"
	exit 0
fi
case $(uname -m) in
x86_64) triple=x86_64-unknown-linux-musl arch=x64 ;;
aarch64 | arm64) triple=aarch64-unknown-linux-musl arch=arm64 ;;
*) echo "install.sh: no native Codex package for $(uname -m)" >&2; exit 1 ;;
esac
pkg=@openai/codex
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
# --ignore-scripts: nothing from the package runs at install time (it has
# no install script; the binary comes in the platform package).
if ! npm install --prefix "$dir.tmp" --no-save --no-package-lock --ignore-scripts \
	--no-audit --no-fund --loglevel=error "$pkg@$v" >"$dir.tmp.log" 2>&1; then
	echo "install.sh: npm install $pkg@$v failed:" >&2
	grep -v 'Unknown user config' "$dir.tmp.log" | tail -n 5 >&2
	exit 1
fi
mod=$dir.tmp/node_modules/$pkg
got=$(node -p 'require(process.argv[1]).version' "$mod/package.json")
[ "$got" = "$v" ] || { echo "install.sh: npm installed $pkg $got, not $v" >&2; exit 1; }
[ -f "$mod/bin/codex.js" ] || { echo "install.sh: $pkg@$v has no bin/codex.js" >&2; exit 1; }
[ -x "$dir.tmp/node_modules/$pkg-linux-$arch/vendor/$triple/bin/codex" ] ||
	{ echo "install.sh: npm did not install $pkg-linux-$arch (the native binary of $pkg@$v)" >&2; exit 1; }
printf '#!/bin/sh\nexec %s %s "$@"\n' "$(command -v node)" "$dir/node_modules/$pkg/bin/codex.js" >"$dir.tmp/codex"
chmod +x "$dir.tmp/codex"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
mv "$dir.tmp.log" "$dir/npm.log"
echo "$dir/codex"
