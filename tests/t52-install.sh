#!/bin/sh
# make install / uninstall with PREFIX and DESTDIR: the binary, the library and
# its header, clawmd.pc (a program compiles and links through pkg-config), the
# man pages and the bash completion.
. "$CLAWMD_TESTS/lib.sh"

D=$T/dest
# Install from a private copy of the build directory: `make install` builds
# `all` first, and whatever it might rebuild must not replace the binary the
# other tests are running.
cp -a "$CLAWMD_BUILD" "$T/build"
M="make --no-print-directory -C $CLAWMD_SRC BUILD=$T/build PREFIX=/opt/clawmd DESTDIR=$D"
# Under `make check` the second run uses the sanitizer build: install that
# one as it was built, never rebuilding it with other flags.
san=
if nm "$T/build/libclawmd.a" 2>/dev/null | grep -q __asan; then
	san=-fsanitize=address,undefined
	M="$M SANITIZE=address,undefined"
fi
# An install before this one, to another prefix, from the same build: none of
# it may leak into the next install, and no install changes the build
# directory (what the tests run).
tree() { (cd "$T/build" && find . -path ./sarif-multitool -prune -o -printf '%p %s %T@ %l\n' | sort); }
tree >"$T/build.before"
expect_ok "make install PREFIX=/other/prefix (an earlier install)" \
	make --no-print-directory -C "$CLAWMD_SRC" BUILD="$T/build" ${san:+SANITIZE=address,undefined} \
	PREFIX=/other/prefix DESTDIR="$T/first" install
expect_ok "make install PREFIX=/opt/clawmd DESTDIR=..." $M install
tree >"$T/build.after"
expect_ok "the installs left the build directory as it was" diff "$T/build.before" "$T/build.after"
expect_ok "the earlier install's prefix is named nowhere in this one" \
	sh -c "! grep -rla /other/prefix '$D'"
expect_ok "the earlier install named its own prefix" grep -q '^prefix=/other/prefix$' \
	"$T/first/other/prefix/lib/pkgconfig/clawmd.pc"
P=$D/opt/clawmd
check "the binary" test -x "$P/bin/clawmd"
check "the library" test -f "$P/lib/libclawmd.a"
check "the public header" cmp -s "$P/include/clawmd.h" "$CLAWMD_SRC/lib/include/clawmd.h"
for h in "$CLAWMD_SRC"/lib/include/clawmd/*.h; do
	check "its part clawmd/${h##*/}" cmp -s "$P/include/clawmd/${h##*/}" "$h"
done
check "clawmd.pc" test -f "$P/lib/pkgconfig/clawmd.pc"
for page in clawmd clawmd-compose clawmd-migrate clawmd-render clawmd-check clawmd-status clawmd-init clawmd-mounts clawmd-report; do
	check "man page $page.1" test -f "$P/share/man/man1/$page.1"
done
check "bash completion" test -f "$P/share/bash-completion/completions/clawmd"
check "zsh completion" test -f "$P/share/zsh/site-functions/_clawmd"
check "fish completion" test -f "$P/share/fish/vendor_completions.d/clawmd.fish"
check "the README, LICENSE and the doc pages" \
	test -f "$P/share/doc/clawmd/README.md" -a -f "$P/share/doc/clawmd/LICENSE" \
	-a -f "$P/share/doc/clawmd/check.md"
check "nothing outside DESTDIR/PREFIX" sh -c "test \"\$(ls '$D')\" = opt"
expect_grep "clawmd.pc records PREFIX, not DESTDIR" '^prefix=/opt/clawmd$' "$P/lib/pkgconfig/clawmd.pc"
check "DESTDIR is never recorded" sh -c "! grep -q '$D' '$P/lib/pkgconfig/clawmd.pc'"

expect_ok "the installed binary runs" "$P/bin/clawmd" --version
expect_grep "and reports its version" '^clawmd [0-9]' "$T/out"
check "the full program beside it, in libexec" test -x "$P/libexec/clawmd/clawmd"
if [ -z "$san" ]; then
	check "the installed clawmd is the static front" \
		sh -c "! readelf -l '$P/bin/clawmd' | grep -q 'program interpreter'"
fi
# The front composes and hands everything else to libexec/clawmd/clawmd,
# found from its own path: both work from the install alone.
R=$T/root
mkdir -p "$R/container" "$R/groups/g" "$R/skills/s"
echo "# base" >"$R/container/CLAUDE.md"
echo "skill" >"$R/skills/s/instructions.md"
echo '{"skills": ["s"]}' >"$R/groups/g/container.json"
expect_ok "the installed clawmd composes a group" "$P/bin/clawmd" compose -C "$R" g
expect_ok "and renders it (handed to the installed full program)" \
	"$P/bin/clawmd" render -C "$R" --group g
expect_grep "render shows the skill" '^skill$' "$T/out"
command -v man >/dev/null || echo "# man is not installed; formatting skipped" >&2
command -v man >/dev/null && expect_ok "man pages format without warnings" sh -c "
	for f in '$P'/share/man/man1/*.1; do
		w=\$(LC_ALL=C MANWIDTH=80 man --warnings -l \"\$f\" 2>&1 >/dev/null) || exit 1
		[ -z \"\$w\" ] || { echo \"\$f: \$w\" >&2; exit 1; }
	done"
expect_ok "the completion is valid bash" bash -n "$P/share/bash-completion/completions/clawmd"
expect_ok "the completion completes subcommands" bash -c "
	. '$P/share/bash-completion/completions/clawmd'
	COMP_WORDS=(clawmd ch); COMP_CWORD=1; _clawmd
	[ \"\${COMPREPLY[*]}\" = check ]"

# pkg-config, seen through DESTDIR by rewriting the prefix (as a packager's
# sysroot would); a small program compiles and links against the library.
PC=$T/pc
mkdir -p "$PC"
sed "s|^prefix=.*|prefix=$P|; s|^libdir=.*|libdir=$P/lib|; s|^includedir=.*|includedir=$P/include|" \
	"$P/lib/pkgconfig/clawmd.pc" >"$PC/clawmd.pc"
expect_ok "pkg-config --cflags --libs clawmd" env PKG_CONFIG_PATH="$PC" pkg-config --cflags --libs clawmd
flags=$(cat "$T/out")
expect_grep "the cflags name the include directory" "-I$P/include" "$T/out"
expect_grep "the libs name the library" "-lclawmd" "$T/out"
cat >"$T/prog.c" <<'C'
#include <clawmd.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	size_t n;
	const struct clawmd_lint_rule *rules = clawmd_lint_rules(&n);
	struct clawmd_group_config cfg;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	const char json[] = "{\"skills\": [\"a\", \"../x\"]}";
	int rc = clawmd_config_parse(&cfg, json, strlen(json), "container.json", &err);
	printf("%s %zu %s %s\n", CLAWMD_VERSION, n, clawmd_code_name(rc), rules[0].code);
	clawmd_config_release(&cfg);
	return clawmd_name_valid("main", 4) ? 0 : 1;
}
C
# The sanitizer build's library needs the sanitizer runtime ($san).
expect_ok "a program compiles and links with pkg-config's flags" \
	sh -c "cc $san -o '$T/prog' '$T/prog.c' $flags"
# (without tests/run-test.sh's preload: a dynamic ASan runtime must come first)
expect_ok "and runs" env -u LD_PRELOAD "$T/prog"
expect_grep "calling the library" '^[0-9.]+ [0-9]+ EINPUT CM101$' "$T/out"

expect_ok "make uninstall" $M uninstall
check "uninstall removes every file" sh -c "test -z \"\$(find '$D' -type f -o -type l)\""
check "... and the directories that are clawmd's own (libexec/clawmd, include/clawmd, share/doc/clawmd)" \
	sh -c "test -z \"\$(find '$D/opt/clawmd' -mindepth 1 -name clawmd -type d)\""
done_testing
