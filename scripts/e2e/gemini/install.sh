#!/bin/sh
# Install one Gemini CLI release from npm into a cache, for make e2e.
#
#   install.sh CACHE_DIR VERSION
#
# Writes CACHE_DIR/VERSION/gemini, a launcher (node + the package's bundled
# entry script), and prints its path.  A second call reuses it, without
# the network.
set -eu
mkdir -p "$1"
cache=$(cd "$1" && pwd -P)
v=$2
case $v in
*[!0-9.]* | '' | .* | *.) echo "install.sh: '$v' is not a release number (like 0.61.0)" >&2; exit 2 ;;
esac
dir=$cache/$v
if [ -x "$dir/gemini" ]; then
	echo "$dir/gemini"
	exit 0
fi
pkg=@google/gemini-cli
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
# --ignore-scripts: nothing from the package runs at install time;
# --omit=optional: the terminal and keychain add-ons are not needed headless.
if ! npm install --prefix "$dir.tmp" --no-save --no-package-lock --ignore-scripts \
	--omit=optional --no-audit --no-fund --loglevel=error "$pkg@$v" >"$dir.tmp.log" 2>&1; then
	echo "install.sh: npm install $pkg@$v failed:" >&2
	grep -v 'Unknown user config' "$dir.tmp.log" | tail -n 5 >&2
	exit 1
fi
mod=$dir.tmp/node_modules/$pkg
got=$(node -p 'require(process.argv[1]).version' "$mod/package.json")
[ "$got" = "$v" ] || { echo "install.sh: npm installed $pkg $got, not $v" >&2; exit 1; }
# the entry script the package's "bin" names
bin=$(node -p 'const p = require(process.argv[1]); typeof p.bin === "string" ? p.bin : p.bin.gemini' "$mod/package.json")
[ -f "$mod/$bin" ] || { echo "install.sh: $pkg@$v has no $bin" >&2; exit 1; }
printf '#!/bin/sh\nexec %s %s "$@"\n' "$(command -v node)" "$dir/node_modules/$pkg/$bin" >"$dir.tmp/gemini"
chmod +x "$dir.tmp/gemini"
rm -rf "$dir"
mv "$dir.tmp" "$dir"
mv "$dir.tmp.log" "$dir/npm.log"
echo "$dir/gemini"
