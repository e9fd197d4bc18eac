#!/bin/sh
# scripts/install-deps.sh on a machine that has nothing (issue 41): what it
# installs for make check (Node included), said with how much before it
# starts, apt-get's progress shown and its output kept in a log, not on the
# terminal; nothing done when nothing is missing; --check names, installs
# nothing.  apt-get, apt-cache, dpkg-query and sudo are stubs on PATH that
# answer as Debian's do and record what they were asked.
. "$CLAWMD_TESTS/lib.sh"

S=$T/src
mkdir -p "$S/scripts" "$T/stub"
cp "$CLAWMD_SRC/scripts/install-deps.sh" "$S/scripts/"
# dpkg-query: installed are the packages listed in $T/installed.
cat >"$T/stub/dpkg-query" <<EOF
#!/bin/sh
for p; do :; done
grep -qx "\$p" "$T/installed" 2>/dev/null && printf 'install ok installed' && exit 0
exit 1
EOF
# apt-get: a simulation lists each package asked for and one dependency,
# --print-uris 2 MB a package, an install prints dpkg's lines (for the
# log) and APT's status lines on its stdout (APT::Status-Fd=1).
cat >"$T/stub/apt-get" <<EOF
#!/bin/sh
echo "apt-get \$*" >>"$T/apt.calls"
pkgs=\$(printf '%s\n' "\$@" | grep -v '^-' | grep -vx 'install\|update\|APT::Status-Fd=1')
case "\$*" in
update*) echo "Hit:1 http://deb.debian.org/debian bookworm InRelease"; exit 0 ;;
-s\ install*) for p in \$pkgs; do echo "Inst \$p (1.0 Debian:12 [amd64])"; echo "Inst libdep-of-\$p (1.0 Debian:12 [amd64])"; done; exit 0 ;;
*--print-uris*) for p in \$pkgs; do echo "'http://deb/\$p.deb' \${p}_1.0_amd64.deb 2000000 SHA256:0"; done; exit 0 ;;
*install*)
	n=0
	for p in \$pkgs; do n=\$((n + 1)); done
	i=0
	for p in \$pkgs; do i=\$((i + 1)); echo "dlstatus:\$i:\$((i * 100 / n)).0000:Retrieving file \$i of \$n"; done
	for p in \$pkgs; do echo "Unpacking \$p (1.0) ..."; echo "pmstatus:\$p:amd64:50:Installing \$p"; echo "Setting up \$p (1.0) ..."; done
	echo "pmstatus:dpkg-exec:100:Running dpkg"
	[ -e "$T/fail" ] && { echo "E: Sub-process /usr/bin/dpkg returned an error code (1)" >&2; exit 100; }
	exit 0 ;;
esac
exit 1
EOF
cat >"$T/stub/apt-cache" <<'EOF'
#!/bin/sh
for p; do case $p in -*|show) ;; *) printf 'Package: %s\nInstalled-Size: 3000\n\n' "$p" ;; esac; done
EOF
printf '#!/bin/sh\necho "sudo $*" >>"%s/apt.calls"\nexec "$@"\n' "$T" >"$T/stub/sudo"
chmod +x "$T/stub/"*
# A PATH with the tools the script uses and no node or npm: the stubs and
# links to the system's own.
mkdir -p "$T/sys"
for c in sh awk grep sed dirname id mkdir tail env cat tr wc rm; do
	ln -s "$(command -v "$c")" "$T/sys/$c"
done
P=$T/stub:$T/sys
: >"$T/installed"

run() { env PATH="$P" sh "$S/scripts/install-deps.sh" "$@"; }
expect_ok "install-deps test, everything missing" run test
expect_grep "says what, and for what, first" \
	'^install-deps: for make check: pkg-config libgit2-dev .* chromium' "$T/err"
expect_grep "... Node for the Node package's tests: nodejs, libnode-dev, npm" \
	'^install-deps: for make check: .* chromium nodejs libnode-dev npm; first apt-get update' "$T/err"
expect_grep "... how many packages, how much to download and on disk, before it installs" \
	'^install-deps: [0-9]+ packages with their dependencies: [0-9.]+ MB to download, [0-9.]+ MB on disk$' "$T/err"
asked=$(sed -n 's/^install-deps: for make check: \(.*\); first.*/\1/p' "$T/err" | wc -w)
expect_grep "... the simulation's count (asked for and a dependency each), 2 MB and 3 MB each" \
	"^install-deps: $((asked * 2)) packages with their dependencies: $((asked * 2)).0 MB to download, $((asked * 6)).0 MB on disk\$" "$T/err"
check "... no percentage above 100" sh -c "! grep -E ' (1[0-9][1-9]|[2-9][0-9][0-9]|[0-9]{4,})%' '$T/err'"
expect_grep "... progress of the download" '^install-deps: downloading [0-9]+ packages [0-9]+%$' "$T/err"
expect_grep "... and of the install" '^install-deps: installing [0-9]+ packages 100%$' "$T/err"
check "... no dpkg line on the terminal" sh -c "! grep -Eq '^(Unpacking|Setting up|Hit:)' '$T/err' '$T/out'"
expect_grep "... they are in build/install-deps.log" '^Setting up chromium' "$S/build/install-deps.log"
expect_grep "... the end says what was installed" '^install-deps: installed pkg-config' "$T/err"
expect_grep "apt-get update before the install" '^apt-get update' "$T/apt.calls"
expect_grep "the install: no recommends, APT's status on stdout" \
	'^apt-get install -y -q --no-install-recommends -o APT::Status-Fd=1 ' "$T/apt.calls"

# A failing install: its status, and the log's end.
: >"$T/fail"
: >"$T/apt.calls"
expect_fail 1 "a failing apt-get install fails it" run test
expect_grep "... saying so, with the end of the log" '^E: Sub-process /usr/bin/dpkg' "$T/err"
rm -f "$T/fail"

# A Node there already (nvm, NodeSource) is used: no Debian nodejs or npm.
mkdir -p "$T/node/bin" "$T/node/include/node"
: >"$T/node/include/node/node_api.h"
printf '#!/bin/sh\necho "%s/node/bin/node"\n' "$T" >"$T/node/bin/node"
printf '#!/bin/sh\nexit 0\n' >"$T/node/bin/npm"
chmod +x "$T/node/bin/node" "$T/node/bin/npm"
expect_ok "install-deps test, with a Node of its own on PATH" env PATH="$T/node/bin:$P" sh "$S/scripts/install-deps.sh" test
check "... installs no nodejs, libnode-dev or npm" sh -c "! grep -E '^install-deps: for make check: .*(nodejs|libnode-dev|npm)' '$T/err'"

# --check: names what is missing, installs nothing.
: >"$T/apt.calls"
expect_fail 1 "--check with packages missing" run --check build
expect_grep "... names them and the command" '^install-deps: missing: pkg-config .* \(Debian, Ubuntu: sudo apt-get install' "$T/err"
check "... and calls no apt-get" test ! -s "$T/apt.calls"

# Nothing missing: nothing done, nothing said.
for p in pkg-config libgit2-dev libyaml-dev libcjson-dev libmd4c-dev gcc make; do echo "$p"; done >"$T/installed"
: >"$T/apt.calls"
expect_ok "install-deps build with everything there" run build
expect_eq "... says nothing" "$(cat "$T/out" "$T/err")" ""
check "... and calls no apt-get" test ! -s "$T/apt.calls"
done_testing
