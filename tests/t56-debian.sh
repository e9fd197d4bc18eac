#!/bin/sh
# The Debian packaging (debian/) agrees with the Makefile, without building
# a package: the version is the library's, the build dependencies are the
# ones scripts/install-deps.sh installs, and every file `make install`
# writes with debian/rules' arguments is shipped by exactly one package
# (debian/*.install) or listed in debian/not-installed, every line of those
# lists matching something.  dh_missing and dh_install check the same at
# package build time; this test catches the drift at `make check`.
. "$CLAWMD_TESTS/lib.sh"

S=$CLAWMD_SRC
DEB=$S/debian

version=$(sed -n 's/^#define CLAWMD_VERSION "\(.*\)"/\1/p' "$S/lib/include/clawmd/base.h")
changelog=$(sed -n '1s/^clawmd (\([^)]*\)) .*/\1/p' "$DEB/changelog")
expect_eq "debian/changelog's version is CLAWMD_VERSION (a native package)" "$changelog" "$version"
expect_grep "the changelog's trailer is well formed" \
	'^ -- [^<]+ <[^>]+>  [A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9:]{8} [+-][0-9]{4}$' "$DEB/changelog"
expect_file "source format: native" "$DEB/source/format" "3.0 (native)"
check "debian/rules is executable" test -x "$DEB/rules"
check "debian/clawmd.postinst (the note about a second install) parses" sh -n "$DEB/clawmd.postinst"
check "... and is executable" test -x "$DEB/clawmd.postinst"
# dpkg-buildpackage in the clone leaves these behind: git ignores every one,
# so the clone stays clean (make deb builds in build/deb/ anyway).
if command -v git >/dev/null && git -C "$S" rev-parse --git-dir >/dev/null 2>&1; then
	for f in debian/clawmd.debhelper.log debian/clawmd-dev.debhelper.log debian/clawmd.substvars \
		debian/files debian/debhelper-build-stamp debian/.debhelper/x debian/tmp/x \
		debian/clawmd/x debian/clawmd-dev/x debian/clawmd-dbgsym/x; do
		check "git ignores $f" git -C "$S" check-ignore -q --no-index "$f"
	done
fi
# dh_auto_install's INSTALL="install --strip-program=true" made install(1)
# warn at every file; the Makefile's own INSTALL comes last.
expect_grep "debian/rules installs with INSTALL=install" 'dh_auto_install -- .*INSTALL=install$' "$DEB/rules"

expect_grep "the source package is clawmd" '^Source: clawmd$' "$DEB/control"
expect_grep "the program's package" '^Package: clawmd$' "$DEB/control"
expect_grep "the library's package (a static library and a header: -dev)" \
	'^Package: clawmd-dev$' "$DEB/control"
# clawmd.pc's Libs name libyaml: the -dev package must bring it.
expect_ok "clawmd-dev depends on libyaml-dev (clawmd.pc links it)" perl -e '
	local $/; $_ = <STDIN>; /^Package: clawmd-dev\n(?:[^\n]+\n)*?Depends:[^\n]*\blibyaml-dev\b/m or die' \
	<"$DEB/control"
# The build dependencies: what install-deps.sh installs for a build.
deps=$(sed -n 's/^pkgs="\(.*\)"$/\1/p' "$S/scripts/install-deps.sh")
expect_ok "install-deps.sh names the build dependencies" test -n "$deps"
for p in $deps; do
	case $p in gcc | make) continue ;; esac # build-essential
	expect_ok "Build-Depends has $p" perl -e '
		local $/; $_ = <STDIN>; my ($bd) = /^Build-Depends:((?:[^\n]*\n)(?:[ \t][^\n]*\n)*)/m or die;
		$bd =~ /(^|[\s,])\Q$ARGV[0]\E([\s,(]|$)/ or die' "$p" <"$DEB/control"
done

# Install as debian/rules does (its INSTALL_ARGS; dh_auto_install adds
# DESTDIR), from a private copy of the build directory as t52 does, the
# sanitizer build installed as it was built.
args=$(sed -n 's/^INSTALL_ARGS *= *//p' "$DEB/rules" | sed 's/\$(DEB_HOST_MULTIARCH)/x86_64-linux-gnu/g')
expect_ok "debian/rules sets INSTALL_ARGS with PREFIX=/usr" sh -c "echo '$args' | grep -q 'PREFIX=/usr\( \|$\)'"
cp -a "$CLAWMD_BUILD" "$T/build"
san=
nm "$T/build/libclawmd.a" 2>/dev/null | grep -q __asan && san=SANITIZE=address,undefined
D=$T/dest
# shellcheck disable=SC2086
expect_ok "make install with debian/rules' arguments" \
	make --no-print-directory -C "$S" BUILD="$T/build" $san $args DESTDIR="$D" install
(cd "$D" && find . ! -type d | sed 's|^\./||' | sort) >"$T/installed"
check "it installed files" test -s "$T/installed"
expect_grep "the full program in /usr/libexec, where the front looks" \
	'^usr/libexec/clawmd/clawmd$' "$T/installed"

# Each installed file against the lists: exactly one pattern claims it.
lists="clawmd.install clawmd-dev.install not-installed"
for l in $lists; do
	grep -v '^#' "$DEB/$l" | grep . | sed "s|^|$l |"
done >"$T/patterns"
bad=
while read -r f; do
	n=0 by=
	while read -r l pat; do
		# shellcheck disable=SC2254
		case $f in $pat) n=$((n + 1)) by="$by $l" ;; esac
	done <"$T/patterns"
	[ "$n" = 1 ] || bad="$bad
$f: claimed by $n list(s):$by"
done <"$T/installed"
expect_eq "every installed file is in exactly one of debian/{clawmd.install,clawmd-dev.install,not-installed}" \
	"$bad" ""
bad=
while read -r l pat; do
	hit=
	while read -r f; do
		# shellcheck disable=SC2254
		case $f in $pat) hit=1; break ;; esac
	done <"$T/installed"
	[ -n "$hit" ] || bad="$bad
$l: $pat matches nothing make install writes"
done <"$T/patterns"
expect_eq "every line of those lists matches an installed file" "$bad" ""
expect_ok "the program's package ships the program, the man pages and the completions" sh -c "
	for p in usr/bin/clawmd usr/libexec/clawmd/clawmd 'usr/share/man/man1/\\*.1' \
		usr/share/bash-completion/completions/clawmd; do
		grep -qx \"\$p\" '$DEB/clawmd.install' || { echo \"missing \$p\" >&2; exit 1; }
	done"
expect_ok "the -dev package ships the headers, the library and clawmd.pc" sh -c "
	for p in usr/include/clawmd.h 'usr/include/clawmd/\\*.h' 'usr/lib/\\*/libclawmd.a' 'usr/lib/\\*/pkgconfig/clawmd.pc'; do
		grep -qx \"\$p\" '$DEB/clawmd-dev.install' || { echo \"missing \$p\" >&2; exit 1; }
	done"
# The lintian overrides name only files the program's package ships.
grep -o '\[[^]]*\]' "$DEB/clawmd.lintian-overrides" | tr -d '[]' | sort -u >"$T/overridden"
expect_ok "each lintian override names a file of the clawmd package" sh -c "
	while read -r f; do grep -qx \"\$f\" '$DEB/clawmd.install' || { echo \"\$f\" >&2; exit 1; }; done <'$T/overridden'"

# make deb is the documented way to build it.
expect_ok "make -n deb runs scripts/deb.sh" sh -c "make --no-print-directory -n -C '$S' deb | grep -q scripts/deb.sh"
expect_ok "scripts/deb.sh is valid sh" sh -n "$S/scripts/deb.sh"

# When the package's own tests fail (dh_auto_test), make deb says so and
# how to build without them: a checkout of deb.sh and a stub
# dpkg-buildpackage that fails as debian/rules does there.
if command -v git >/dev/null; then
	mkdir -p "$T/src/scripts" "$T/src/lib/include/clawmd" "$T/bin"
	cp "$S/scripts/deb.sh" "$T/src/scripts/"
	cp "$S/lib/include/clawmd/base.h" "$T/src/lib/include/clawmd/"
	git -C "$T/src" init -q && git -C "$T/src" add . || _report 1 "a git checkout for deb.sh"
	printf '#!/bin/sh\necho "not ok 1 - a composed group becomes known"\necho "make[1]: *** [debian/rules:57: override_dh_auto_test] Error 1" >&2\nexit 2\n' \
		>"$T/bin/dpkg-buildpackage"
	printf '#!/bin/sh\nexit 0\n' >"$T/bin/dh"
	chmod +x "$T/bin/dpkg-buildpackage" "$T/bin/dh"
	expect_fail 1 "make deb: the package's tests failing fail it" env PATH="$T/bin:$PATH" sh "$T/src/scripts/deb.sh"
	expect_grep "... naming dh_auto_test, its log and DEB_BUILD_OPTIONS=nocheck" \
		"tests failed \\(dh_auto_test.*build/deb/build.log.*DEB_BUILD_OPTIONS=nocheck make deb" "$T/err"
	expect_grep "... the build's own output kept" "override_dh_auto_test" "$T/src/build/deb/build.log"
fi
done_testing
