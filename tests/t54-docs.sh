#!/bin/sh
# The documentation cannot drift from the program.  For every command, its
# --help, its man page (doc/man) and the option table of its page in doc/
# list the same options with the same defaults; the options every command
# takes are compared the same way against clawmd(1) and doc/layout.md, and
# the clawmd.json keys of doc/layout.md against those flags and against
# what the program does.  An option's default is written one way
# everywhere, "(default: VALUE)" in its own description, and the word
# "default" appears in no other form there, so a stray "(the default)" on
# the wrong value cannot hide.  Then: the rule codes, the README's length
# and links, every link and anchor in README.md and doc/*.md, and each
# page's table of contents.
. "$CLAWMD_TESTS/lib.sh"
MAN=$CLAWMD_SRC/doc/man
DOC=$CLAWMD_SRC/doc
README=$CLAWMD_SRC/README.md

# opts.pl MODE ...: one line per option, "--opt<TAB>default" (the default
# normalised: no Markdown or roff markup, no quotes, single spaces; empty
# when none is stated), sorted.  A description that says "default" in any
# other form gives "--opt<TAB>!stray: ...".
#   help SECTION   --help on stdin; SECTION own ("Options:") or layout
#                  ("Layout options", with --color and --help)
#   man FILE       the .TP entries of FILE's OPTIONS section
#   doc FILE HEAD  the table under the heading line HEAD of FILE
cat >"$T/opts.pl" <<'PERL'
use strict; use warnings;
my %out;
sub norm { my $s = shift;
	$s =~ s/\\f[BIRP]//g; $s =~ s/\\-/-/g; $s =~ s/\\\(dq/"/g; $s =~ s/\\&//g;
	$s =~ s/\\e/\\/g; $s =~ s/[`'"]//g; $s =~ s/\s+/ /g; $s =~ s/^ | $//g; $s }
sub entry { my ($names, $desc) = @_;
	$desc = norm($desc);
	my $d = '';
	(my $rest = $desc) =~ s/\(default: ([^)]*)\)/$d = $1, ''/e;
	# "default" as a value ("--preset default") is fine; as a claim it is not.
	$d = "!stray: $desc" if $rest =~ /\bthe default\b|\(default\b|\bdefaults? (to|is)\b|\bby default\b/i;
	$out{$_} = $d for $names =~ /(--[a-z][a-z-]*)/g;
}
my $mode = shift;
if ($mode eq 'help') {
	my $want = shift; my ($sec, $names, $desc) = ('', undef, '');
	my $flush = sub { entry($names, $desc) if defined $names; undef $names; $desc = '' };
	while (<STDIN>) { chomp;
		if (/^Options:/) { $flush->(); $sec = 'own'; next }
		if (/^Layout options/) { $flush->(); $sec = 'layout'; next }
		if (/^\S/ || /^$/) { $flush->(); $sec = '' if /^\S/; next }
		next unless $sec;
		if (/^ {2,}((?:-[A-Za-z], )?--[a-z-]+(?: [A-Z]+)?)\s*(.*)$/) {
			$flush->();
			my ($n, $d) = ($1, $2);
			my $common = $n =~ /--(color|help)\b/;
			next if ($common ? 'layout' : $sec) ne $want;
			($names, $desc) = ($n, $d);
		} elsif (defined $names) { $desc .= " $_" }
	}
	$flush->();
} elsif ($mode eq 'man') {
	my $f = shift; open my $fh, '<', $f or die "$f: $!";
	my ($on, $state, $names, $desc) = (0, '', undef, '');
	my $flush = sub { entry($names, $desc) if defined $names; undef $names; $desc = '' };
	while (<$fh>) { chomp;
		if (/^\.SH OPTIONS/) { $on = 1; next }
		if (/^\.S[HS] /) { $flush->(); $on = 0; next }
		next unless $on;
		if (/^\.(TP|PP|IP|LP)\b/) { $flush->(); $state = $1 eq 'TP' ? 'head' : ''; next }
		my $text = $_;
		if (/^\.([A-Za-z]+)\s*(.*)$/) {
			my ($m, $a) = ($1, $2); my @a;
			push @a, defined $1 ? $1 : $2 while $a =~ /\G\s*(?:"([^"]*)"|(\S+))/g;
			$text = $m =~ /^(B|I|SM)$/ ? join(' ', @a) : $m =~ /^[BIR][BIR]$/ ? join('', @a) : '';
		}
		if ($state eq 'head') { $names = norm($text); $state = 'body'; next }
		$desc .= " $text" if $state eq 'body';
	}
	$flush->();
} elsif ($mode eq 'doc') {
	my ($f, $head) = @ARGV; open my $fh, '<', $f or die "$f: $!";
	my $on = 0;
	while (<$fh>) { chomp;
		if ($_ eq $head) { $on = 1; next }
		$on = 0 if $on && /^#{1,2} /;
		next unless $on && /^\| `-/;
		my @c = split /\s\|\s/, substr($_, 2, -2);
		entry($c[0], $c[-1]);
	}
}
print "$_\t$out{$_}\n" for sort keys %out;
PERL
opts() { perl "$T/opts.pl" "$@"; }
help() { "$CLAWMD" "$1" --help | opts help "$2"; }
# the options (first column) of opts output
names() { cut -f1; }
no_stray() { # NAME LINES
	s=$(printf '%s\n' "$2" | grep '!stray' || true)
	expect_eq "$1" "$s" ""
}

for cmd in compose migrate render check status init mounts report; do
	h=$(help $cmd own)
	check "$cmd: --help lists options" test -n "$h"
	m=$(opts man "$MAN/clawmd-$cmd.1" | grep -v -e '^--root	' -e '^--color	' -e '^--help	')
	d=$(opts doc "$DOC/$cmd.md" "## Options" | grep -v -e '^--root	' -e '^--color	' -e '^--help	')
	# init takes -C/--root as its own option (the directory to scaffold).
	[ $cmd = init ] && m=$(opts man "$MAN/clawmd-init.1") d=$(opts doc "$DOC/init.md" "## Options")
	no_stray "$cmd: --help states defaults as (default: VALUE)" "$h"
	no_stray "$cmd: the man page states defaults as (default: VALUE)" "$m"
	no_stray "$cmd: doc/$cmd.md states defaults as (default: VALUE)" "$d"
	expect_eq "$cmd: the man page lists the --help options" "$(echo "$m" | names)" "$(echo "$h" | names)"
	expect_eq "$cmd: doc/$cmd.md lists the --help options" "$(echo "$d" | names)" "$(echo "$h" | names)"
	expect_eq "$cmd: the man page states the --help defaults" "$m" "$h"
	expect_eq "$cmd: doc/$cmd.md states the --help defaults" "$d" "$h"
done
# The layout options are described once, in 'clawmd --help'; each command's
# page names them in a few lines, and must name every one.
l=$("$CLAWMD" --help | opts help layout)
lnames=$(echo "$l" | names | grep -v -e '^--color$' -e '^--help$')
for cmd in compose migrate render check status mounts report; do
	got=$("$CLAWMD" $cmd --help | sed -n '/^Layout options, before/,/^$/p' | grep -o -e '-C ' -e '--[a-z-]*' |
		sed 's/^-C $/--root/' | grep -v '^--help$' | sort)
	expect_eq "$cmd: its --help names every layout option of clawmd --help" "$got" "$lnames"
done
no_stray "the layout options state defaults as (default: VALUE)" "$l"
m=$(opts man "$MAN/clawmd.1" | grep -v -e '^--version	' -e '^--quiet	')
expect_eq "clawmd(1) lists the layout and common options, with their defaults" "$m" "$l"
expect_eq "doc/layout.md lists the layout and common options, with their defaults" \
	"$(opts doc "$DOC/layout.md" "## Options every command takes")" "$l"
expect_grep "clawmd(1) lists -q/--quiet (before the command)" '^\.BR \\-q ", " \\-\\-quiet$' "$MAN/clawmd.1"
check "every command has a man page" sh -c "for c in compose migrate render check status init mounts report; do test -f '$MAN'/clawmd-\$c.1 || exit 1; done"
check "clawmd(1) names every command" sh -c "for c in compose migrate render check status init mounts report; do grep -q \"^\\.B \$c\$\" '$MAN/clawmd.1' || exit 1; done"

# ---- the defaults against what the program does ------------------------
dflt() { printf '%s\n' "$1" | awk -F '\t' -v o="$2" '$1 == o { print $2 }'; }
# The clawmd.json keys: "| `key` | `--flag` or nothing | meaning (default: V) |"
keys() {
	awk '$0 == "## Every key of clawmd.json" { on = 1; next } on && /^#{1,2} / { on = 0 }
		on && /^\| `[a-z_]+` \|/' "$DOC/layout.md" |
		perl -ne 'my @c = split /\s*\|\s*/, substr($_, 2, -3), -1; (my $k = $c[0]) =~ s/`//g;
			(my $f = $c[1]) =~ s/[` ]//g; my $d = "";
			if ($c[2] =~ /\(default: ([^)]*)\)/) { ($d = $1) =~ s/[`\x27"]//g; $d =~ s/\s+/ /g }
			print "$k\t$f\t$d\n"'
}
K=$(keys)
key_dflt() { printf '%s\n' "$K" | awk -F '\t' -v k="$1" '$1 == k { print $3 }'; }
check "doc/layout.md has the table of clawmd.json keys" test -n "$K"
# Every key the program knows (lib/layout/layout.c's list), and no other.
known=$(sed -n '/layout_keys\[\] = {/,/};/p' "$CLAWMD_SRC/lib/layout/layout.c" |
	grep -o '"[a-z_.]*"' | tr -d '"' | grep -v '\.' | sort)
check "lib/layout/layout.c's list of clawmd.json keys is found" test -n "$known"
expect_eq "doc/layout.md lists every clawmd.json key" \
	"$(printf '%s\n' "$K" | cut -f1 | sort)" "$known"
# A key that is also a flag has the flag's default, where the flag states one.
printf '%s\n' "$K" | while IFS="$(printf '\t')" read -r k f d; do
	[ -n "$f" ] || continue
	hd=$(dflt "$l" "$f")
	[ -n "$hd" ] || continue
	[ "$d" = "$hd" ] || echo "$k: '$d', $f: '$hd'"
done >"$T/keyflag"
expect_eq "each clawmd.json key states its flag's default" "$(cat "$T/keyflag")" ""
# The mode: a compose with no clawmd.json writes regular files (copy).
R=$T/root
mkdir -p "$R/container" "$R/groups/g" "$R/skills/s"
echo base >"$R/container/CLAUDE.md"
echo skill >"$R/skills/s/instructions.md"
expect_ok "compose with no clawmd.json" "$CLAWMD" compose -q -C "$R" g
if [ -f "$R/groups/g/.claude-shared.md" ] && [ ! -L "$R/groups/g/.claude-shared.md" ]; then
	mode=copy
else
	mode=symlink
fi
expect_eq "--mode states the mode compose uses by default" "$(dflt "$l" --mode)" "$mode"
expect_eq "init --mode states it too" "$(dflt "$(help init own)" --mode)" "$mode"
expect_eq "doc/layout.md's mode key states it" "$(key_dflt mode)" "$mode"
# claude_version: what init writes into clawmd.json.
expect_ok "init" "$CLAWMD" init "$T/fresh"
cv=$(perl -MJSON::PP -e 'local $/; print decode_json(<STDIN>)->{claude_version}' <"$T/fresh/clawmd.json")
check "init wrote a claude_version" test -n "$cv"
expect_eq "doc/layout.md's claude_version key states it" "$(key_dflt claude_version)" "$cv"
expect_eq "init --claude-version states it" "$(dflt "$(help init own)" --claude-version)" \
	"$cv, the newest clawmd knows"
expect_eq "render --claude-version states it" "$(dflt "$(help render own)" --claude-version)" \
	"claude_version from clawmd.json with --group, else, for a nanoclaw host, the release container/cli-tools.json pins, else $cv"
# lock_timeout and token_budget: what clawmd_layout_init() sets.
lt=$(sed -n 's/^[[:space:]]*lay->lock_timeout = \([0-9]*\);.*/\1/p' "$CLAWMD_SRC/lib/layout/layout.c")
tb=$(sed -n 's/^[[:space:]]*lay->token_budget = \([0-9]*\);.*/\1/p' "$CLAWMD_SRC/lib/layout/layout.c")
check "lib/layout/layout.c's lock_timeout and token_budget defaults are found" test -n "$lt" -a -n "$tb"
expect_eq "--lock-timeout states the lock timeout" "$(dflt "$l" --lock-timeout)" "$lt"
expect_eq "doc/layout.md's lock_timeout key states it" "$(key_dflt lock_timeout)" "$lt"
expect_eq "doc/layout.md's token_budget key states the token budget" "$(key_dflt token_budget)" "$tb"
check "doc/check.md's CM202 states it" grep -q "^- \`CM202\`.*default $tb," "$DOC/check.md"
# No page says another mode is the default.
check "no page calls symlink mode the default" sh -c \
	"! grep -rniE 'symlink\`? \\((the default|default\\))|default:? \`?symlink|default symlink' '$README' '$DOC' '$MAN' '$CLAWMD_SRC/lib/lint'"

# ---- rule codes ----------------------------------------------------------
# The library's table, doc/check.md's list and clawmd-check(1).
"$CLAWMD" check --format sarif --cwd "$T" 2>/dev/null >"$T/sarif"
codes=$(perl -MJSON::PP -e 'local $/; print "$_->{id}\n" for @{decode_json(<STDIN>)->{runs}[0]{tool}{driver}{rules}}' <"$T/sarif")
expect_eq "doc/check.md lists every rule" "$(sed -n 's/^- `\(CM[0-9]*\)`.*/\1/p' "$DOC/check.md")" "$codes"
expect_eq "clawmd-check(1) lists every rule" \
	"$(sed -n 's/^\.B \(CM[0-9]*\) .*/\1/p' "$MAN/clawmd-check.1")" "$codes"
for c in $codes; do
	lc=$(echo "$c" | tr 'A-Z' 'a-z')
	check "doc/check.md anchor for $c" grep -q "<a id=\"$lc\"></a>" "$DOC/check.md"
done
# The depth limit is worded as Claude Code loads it, everywhere.
check "no 'five levels'/'5 levels' wording left" sh -c "! grep -rniE '(5|five) (levels|imports deep)|at most 5([^0-9,]|$)' '$README' '$DOC' '$MAN' '$CLAWMD_SRC/lib/lint'"

# ---- the README, links, tables of contents -------------------------------
n=$(wc -l <"$README")
check "the README is at most 300 lines ($n)" test "$n" -le 300
for p in "$DOC"/*.md; do
	b=${p##*/}
	check "the README links doc/$b" grep -q "](doc/$b[)#]" "$README"
done
# Every relative link resolves, and its #anchor is a heading or an <a id>.
cat >"$T/links.pl" <<'PERL'
use strict; use warnings; use File::Basename;
sub anchors { my $f = shift; my %a; my $fence = 0;
	open my $fh, '<', $f or return undef;
	while (<$fh>) { $fence = !$fence if /^```/; next if $fence;
		if (/^#+ (.*)/) { (my $h = lc $1) =~ s/[^\w\- ]//g; $h =~ s/ /-/g; $a{$h} = 1 }
		$a{$1} = 1 while /<a id="([^"]+)"><\/a>/g }
	\%a }
my $bad = 0;
for my $f (@ARGV) { open my $fh, '<', $f or die; my $fence = 0; my $n = 0;
	while (my $l = <$fh>) { $n++; $fence = !$fence if $l =~ /^```/; next if $fence;
		$l =~ s/`[^`]*`//g;
		while ($l =~ /\]\(([^)\s]+)\)/g) { my $t = $1;
			next if $t =~ m{^[a-z]+:};
			my ($path, $anc) = split /#/, $t, 2;
			my $target = $path eq '' ? $f : dirname($f) . "/$path";
			if (!-e $target) {
				# The CI recipes come with their own change (issue 20, item 5).
				if ($t =~ m{^contrib/ci/}) { print STDERR "# not yet there: $t\n"; next }
				print "$f:$n: no such file: $t\n"; $bad++; next }
			next unless defined $anc && $target =~ /\.md$/;
			my $a = anchors($target);
			unless ($a->{$anc}) { print "$f:$n: no anchor: $t\n"; $bad++ } } } }
exit($bad ? 1 : 0);
PERL
expect_ok "every link in README.md and doc/*.md resolves" perl "$T/links.pl" "$README" "$DOC"/*.md
# The README's Node snippet (the first js block of "At every spawn"), run as written: it composes, and it throws with
# the reason when clawmd fails (exit 4: no such group) or cannot run at all
# (not on PATH: r.error), never "failed (null)".
sed -n '/^\*\*At every spawn: compose\.\*\*/,/^## /p' "$README" |
	awk '/^```js$/ { if (done) exit; on = 1; next } on && /^```$/ { on = 0; done = 1 } on' >"$T/compose.mjs"
check "the README has a Node snippet" grep -q 'function composeGroup' "$T/compose.mjs"
if command -v node >/dev/null 2>&1; then
	mkdir -p "$T/bin" && ln -sf "$CLAWMD" "$T/bin/clawmd"
	cat >>"$T/compose.mjs" <<'JS'
try { composeGroup(process.argv[2], process.argv[3]); console.log("composed"); }
catch (e) { console.log(`threw: ${e.message}`); process.exitCode = 1; }
JS
	node_ok() { env PATH="$1" "$(command -v node)" "$T/compose.mjs" "$R" "$2"; }
	expect_ok "Node snippet: composes a group" node_ok "$T/bin:$PATH" g
	expect_grep "Node snippet: and says so" '^composed$' "$T/out"
	expect_fail 1 "Node snippet: a failed compose throws" node_ok "$T/bin:$PATH" nosuch
	expect_grep "Node snippet: with the exit status" '^threw: clawmd compose nosuch failed \(4\)$' "$T/out"
	expect_fail 1 "Node snippet: a missing clawmd throws" node_ok "$T/nowhere" g
	expect_grep "Node snippet: with the reason" '^threw: clawmd compose g: .*ENOENT' "$T/out"
else
	echo "# node is not installed; the Node snippet is not run" >&2
fi
# Each page's contents list every section, before the first one.
for p in compose migrate render check status init report layout speed security e2e development architecture node; do
	f=$DOC/$p.md
	want=$(awk '/^```/ { f = !f } !f && /^##+ / { sub(/^#+ /, ""); print }' "$f")
	got=$(awk '/^## / { exit } /^ *- \[/ { sub(/^ *- \[/, ""); sub(/\]\(#.*/, ""); print }' "$f")
	expect_eq "doc/$p.md has a table of contents" "$got" "$want"
done
# The runtime lists of the architecture page and the public header's map
# name every built-in row of the table, not the first four (issue 40 item 7).
arch=$(grep '^| `runtime/`' "$DOC/architecture.md")
for rt in $(sed -n 's/^[[:space:]]*\.name = "\([a-z]*\)".*/\1/p' "$CLAWMD_SRC/lib/runtime/runtime.c"); do
	check "doc/architecture.md's runtime/ line names $rt" sh -c 'printf %s "$1" | grep -qi "$2"' - "$arch" "$rt"
done
check "clawmd.h's map lists no runtimes by hand" sh -c "! grep -q 'runtime.h  the agent runtimes: ' '$CLAWMD_SRC/lib/include/clawmd.h'"
done_testing
