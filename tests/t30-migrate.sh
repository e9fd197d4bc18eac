#!/bin/sh
# migrate: the legacy cutover, behaviour by behaviour (issue 3, items 1-4
# and 6): which directories are groups, what happens to each group's files,
# groups/global carried into the base and archived, the record, the second
# run being a no-op, --dry-run, --json, errors.
. "$CLAWMD_TESTS/lib.sh"

# A private copy of the binary: the loop runs long, and a shared build
# directory may be relinking $CLAWMD meanwhile.
private_clawmd
# A listing of everything under $1 with type, inode, mtime, size, link
# target: equal listings mean nothing was touched, not even a timestamp.
snap() { (cd "$1" && find . -printf '%p %y %i %T@ %s %l\n' | sort); }
# JSON through perl's JSON::PP (python3 can take a second to start).
json_ok() { perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; decode_json(<$f>)' "$1" >/dev/null 2>&1; }
# json_is FILE PERL-EXPR: the expression, with the document in $d, is true
# ($g->(LIST): the "group" values of a list of objects, comma-joined).
json_is() {
	perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die "$ARGV[0]: $!\n";
		my $d = decode_json(<$f>); my $g = sub { join ",", map { $_->{group} } @{$_[0]} };
		eval($ARGV[1]) or die "not true: $ARGV[1]\n" . encode_json($d) . "\n"' "$1" "$2"
}

# legacy_root DIR: nanoclaw's layout before the cutover.
legacy_root() {
	make_root "$1"
	G=$1/groups
	mkdir -p "$G/global/sub" "$G/a" "$G/b" "$G/c" "$G/d" "$G/f" "$G/.hidden" "$1/outside"
	printf '# Global\n\nBe helpful.\n\nAlways sign with -- bot.\n' >"$G/global/CLAUDE.md"
	echo "global notes" >"$G/global/notes.txt"
	echo "deep" >"$G/global/sub/deep.txt"
	# a: the common case
	printf '@./.claude-global.md\n\n# Persona A\n\nI am A.\n' >"$G/a/CLAUDE.md"
	ln -s /workspace/global/CLAUDE.md "$G/a/.claude-global.md"
	# b: both CLAUDE.md and CLAUDE.local.md have content
	printf '@./.claude-global.md\n# Persona B\n' >"$G/b/CLAUDE.md"
	printf 'B remembers things.\n' >"$G/b/CLAUDE.local.md"
	ln -s /workspace/global/CLAUDE.md "$G/b/.claude-global.md"
	# c: a regular file named .claude-global.md (the owner's: kept)
	printf 'my own notes\n' >"$G/c/.claude-global.md"
	printf '# Persona C\n@./.claude-global.md\nmore C\n' >"$G/c/CLAUDE.md"
	# d: an empty CLAUDE.local.md, CLAUDE.md without a final newline
	: >"$G/d/CLAUDE.local.md"
	printf 'Persona D' >"$G/d/CLAUDE.md"
	# f: CLAUDE.md is a symlink planted by the agent: moved aside, not read
	echo "secret" >"$1/outside/secret"
	ln -s ../../outside/secret "$G/f/CLAUDE.md"
	# a dot-directory and a symlinked directory: not groups
	printf '@./.claude-global.md\nhidden\n' >"$G/.hidden/CLAUDE.md"
	ln -s /workspace/global/CLAUDE.md "$G/.hidden/.claude-global.md"
	mkdir -p "$1/elsewhere"
	printf '@./.claude-global.md\nelsewhere\n' >"$1/elsewhere/CLAUDE.md"
	ln -s /workspace/global/CLAUDE.md "$1/elsewhere/.claude-global.md"
	ln -s ../elsewhere "$G/linked"
	# e: already composed by clawmd: left alone
	mkdir -p "$G/e"
	$CLAWMD compose -C "$1" e >/dev/null 2>&1
}

R=$T/root
legacy_root "$R"
cp -a "$R/groups/global" "$T/global-before"
cp "$R/groups/e/CLAUDE.md" "$T/e-before"

expect_ok "--help" $CLAWMD migrate --help
expect_grep "--help describes --dry-run" "--dry-run" "$T/out"
expect_fail 2 "unknown option is a usage error" $CLAWMD migrate -C "$R" --bogus
expect_fail 2 "an argument is a usage error" $CLAWMD migrate -C "$R" a

# ---- 6. --dry-run lists every action and changes nothing -----------------
before=$(snap "$R")
expect_ok "dry run succeeds" $CLAWMD migrate -C "$R" --dry-run
expect_eq "dry run changed nothing (inode, mtime, size of everything)" "$(snap "$R")" "$before"
cp "$T/out" "$T/dry.txt"
expect_grep "dry run: a's symlink" '^remove-link +groups/a/\.claude-global\.md$' "$T/dry.txt"
expect_grep "dry run: a moves" '^move +groups/a/CLAUDE\.md -> groups/a/CLAUDE\.local\.md' "$T/dry.txt"
expect_grep "dry run: b appends" '^append +groups/b/CLAUDE\.md -> groups/b/CLAUDE\.local\.md' "$T/dry.txt"
expect_grep "dry run: c keeps its regular file" '^keep +groups/c/\.claude-global\.md' "$T/dry.txt"
expect_grep "dry run: d moves into the empty local" '^move +groups/d/CLAUDE\.md' "$T/dry.txt"
expect_grep "dry run: e has nothing to do" '^ok +groups/e ' "$T/dry.txt"
expect_grep "dry run: f moves the symlink aside" '^move-aside +groups/f/CLAUDE\.md' "$T/dry.txt"
expect_grep "dry run: the symlinked directory is reported" '^skip +groups/linked .*symlink' "$T/dry.txt"
expect_grep "dry run: global into the base" '^append-base +groups/global/CLAUDE\.md -> container/CLAUDE\.md' "$T/dry.txt"
expect_grep "dry run: global archived" '^archive +groups/global -> \.clawmd/archive/global-' "$T/dry.txt"
expect_grep "dry run: the record last" '^record +\.clawmd/migrated\.json$' "$T/dry.txt"
check "dry run: the dot-directory is not mentioned" sh -c "! grep -q hidden '$T/dry.txt'"
check "dry run: the record is the last line" sh -c "tail -n 1 '$T/dry.txt' | grep -q '^record'"

expect_ok "dry run --json" $CLAWMD migrate -C "$R" --dry-run --json
check "dry run --json parses" json_ok "$T/out"
check "dry run --json holds the plan" json_is "$T/out" '
	my @acts = map { "$_->{action} " . ($_->{path} // "") } @{$d->{actions}};
	JSON::PP::is_bool($d->{dry_run}) && $d->{dry_run} &&
	JSON::PP::is_bool($d->{already_migrated}) && !$d->{already_migrated} &&
	join(",", @{$d->{groups}}) eq "a,b,c,d,e,f" &&
	(grep { $_ eq "move groups/a/CLAUDE.md" } @acts) && (grep { $_ eq "skip groups/linked" } @acts) &&
	$acts[-1] eq "record .clawmd/migrated.json"'
expect_eq "--json dry run changed nothing either" "$(snap "$R")" "$before"

# ---- the run ----------------------------------------------------------------
expect_ok "migrate succeeds" $CLAWMD migrate -C "$R" --json
check "the result parses as JSON" json_ok "$T/out"
G=$R/groups

# 2. per group
check "a: legacy symlink removed" test ! -e "$G/a/.claude-global.md" -a ! -L "$G/a/.claude-global.md"
check "a: CLAUDE.md removed (compose writes the new one)" test ! -e "$G/a/CLAUDE.md"
expect_file "a: CLAUDE.md became CLAUDE.local.md minus the import" "$G/a/CLAUDE.local.md" \
	"$(printf '# Persona A\n\nI am A.')"
check "b: legacy symlink removed" test ! -L "$G/b/.claude-global.md"
check "b: CLAUDE.md removed" test ! -e "$G/b/CLAUDE.md"
expect_eq "b: CLAUDE.md appended under a marker, local content first" \
	"$(sed 's/fnv1a64=[0-9a-f]*/fnv1a64=X/' "$G/b/CLAUDE.local.md")" \
	"$(printf 'B remembers things.\n\n<!-- clawmd migrate: carried from CLAUDE.md (fnv1a64=X) -->\n# Persona B')"
expect_file "c: the regular .claude-global.md is kept" "$G/c/.claude-global.md" "my own notes"
expect_file "c: the import line dropped from the middle" "$G/c/CLAUDE.local.md" \
	"$(printf '# Persona C\nmore C')"
expect_file "d: an empty CLAUDE.local.md replaced by the persona" "$G/d/CLAUDE.local.md" "Persona D"
check "e: the composed CLAUDE.md is untouched" cmp -s "$G/e/CLAUDE.md" "$T/e-before"
check "f: the planted symlink is gone from CLAUDE.md" test ! -e "$G/f/CLAUDE.md" -a ! -L "$G/f/CLAUDE.md"
check "f: moved aside as a symlink, not followed" sh -c "test -L '$G'/f/CLAUDE.md.clawmd-preserved-*"
expect_file "f: its target is untouched" "$R/outside/secret" "secret"
check "f: nothing was read through it" test ! -e "$G/f/CLAUDE.local.md"
# 1. not groups
expect_file "the dot-directory is untouched" "$G/.hidden/CLAUDE.md" "$(printf '@./.claude-global.md\nhidden')"
check "the dot-directory keeps its symlink" test -L "$G/.hidden/.claude-global.md"
check "the symlinked directory is not followed" test -L "$R/elsewhere/.claude-global.md"
expect_file "the symlinked directory's target is untouched" "$R/elsewhere/CLAUDE.md" \
	"$(printf '@./.claude-global.md\nelsewhere')"

# 3. groups/global
check "groups/global is gone from groups/" test ! -e "$G/global"
arch=$(ls -d "$R"/.clawmd/archive/global-* 2>/dev/null)
check "archived under the state directory, outside groups/" test -d "$arch"
check "the archive holds every file of groups/global unchanged" diff -r "$T/global-before" "$arch"
expect_eq "the base gets exactly the missing blocks, under a marker" \
	"$(sed 's/fnv1a64=[0-9a-f]*/fnv1a64=X/' "$R/container/CLAUDE.md")" \
	"$(printf '# Shared base\n\nBe helpful.\n\n<!-- clawmd migrate: carried from groups/global/CLAUDE.md (fnv1a64=X) -->\n# Global\n\nAlways sign with -- bot.')"

# 4. record
check "the completion record exists" test -f "$R/.clawmd/migrated.json"
check "the record parses" json_ok "$R/.clawmd/migrated.json"
expect_grep "the record lists the archive" 'archive/global-' "$R/.clawmd/migrated.json"
check "no temp left anywhere" sh -c "! find '$R' -name '*.tmp' | grep -q ."

# ---- 4. the second run changes nothing -----------------------------------
before=$(snap "$R")
expect_ok "second run succeeds" $CLAWMD migrate -C "$R"
expect_grep "second run says it is done" "already migrated" "$T/out"
expect_eq "second run: not even a timestamp changed" "$(snap "$R")" "$before"
expect_ok "second run with --force succeeds" $CLAWMD migrate -C "$R" --force
expect_eq "--force over a migrated tree changes nothing either" "$(snap "$R")" "$before"
expect_ok "second run --json" $CLAWMD migrate -C "$R" --json
check "second run --json says already_migrated" \
	json_is "$T/out" '$d->{already_migrated}'

# After migration the next compose writes the new entry and keeps the memory.
cp "$G/a/CLAUDE.local.md" "$T/a-local"
expect_ok "compose after migrate" $CLAWMD compose -C "$R" --all
expect_grep "a: composed CLAUDE.md" "^@\./\.claude-shared\.md$" "$G/a/CLAUDE.md"
check "a: the carried persona survives compose" cmp -s "$G/a/CLAUDE.local.md" "$T/a-local"
check "compose has no preserved copies to make" sh -c "! ls '$G'/a '$G'/b '$G'/c '$G'/d | grep -q preserved"

# groups/global reappearing after the cutover: reported, carried with --force
mkdir "$G/global"
printf 'Be helpful.\n\nNew global rule.\n' >"$G/global/CLAUDE.md"
expect_ok "record present, groups/global again: no action" $CLAWMD migrate -C "$R"
expect_grep "warns that groups/global is back" "global exists again" "$T/err"
check "it is left in place without --force" test -f "$G/global/CLAUDE.md"
expect_ok "--force carries it over" $CLAWMD migrate -C "$R" --force
expect_eq "--force: two archives, neither clobbered" "$(ls -d "$R"/.clawmd/archive/global-* | wc -l)" "2"
expect_eq "--force: only the new block appended" "$(grep -c 'New global rule' "$R/container/CLAUDE.md") $(grep -c 'Always sign' "$R/container/CLAUDE.md")" "1 1"
expect_eq "the record lists both archives" "$(grep -o 'archive/global-' "$R/.clawmd/migrated.json" | wc -l)" "2"

# ---- 3. global identical to (or contained in) the shared base -------------
R2=$T/same
make_root "$R2"
mkdir -p "$R2/groups/global" "$R2/groups/x"
cp "$R2/container/CLAUDE.md" "$R2/groups/global/CLAUDE.md"
echo "extra" >"$R2/groups/global/extra.md"
base_before=$(cd "$R2/container" && find . -printf '%p %i %T@ %s\n')
expect_ok "global identical to the base" $CLAWMD migrate -C "$R2"
expect_grep "reported as already in the base" '^base-has ' "$T/out"
expect_eq "the base is not rewritten (same inode, same mtime)" \
	"$(cd "$R2/container" && find . -printf '%p %i %T@ %s\n')" "$base_before"
check "still archived, with its extra file" sh -c "test -f '$R2'/.clawmd/archive/global-*/extra.md"

R3=$T/contained
make_root "$R3"
mkdir -p "$R3/groups/global"
# Trailing blanks and blank-line runs differ; every block is in the base.
printf '\n\nBe helpful.   \n\n\n# Shared base\n' >"$R3/groups/global/CLAUDE.md"
cp "$R3/container/CLAUDE.md" "$T/base3"
expect_ok "global contained in the base" $CLAWMD migrate -C "$R3"
check "base unchanged when every block is contained" cmp -s "$R3/container/CLAUDE.md" "$T/base3"
R4=$T/partial
make_root "$R4"
mkdir -p "$R4/groups/global"
# A line of the base that is only part of a global line is not "contained".
printf 'Be helpful.\nBe helpful to users too.\n' >"$R4/groups/global/CLAUDE.md"
expect_ok "global block that only overlaps the base" $CLAWMD migrate -C "$R4"
expect_grep "the whole block is carried" '^Be helpful to users too\.$' "$R4/container/CLAUDE.md"
R5=$T/nobase
mkdir -p "$R5/container" "$R5/groups/global"
echo "only global" >"$R5/groups/global/CLAUDE.md"
expect_ok "no shared base yet" $CLAWMD migrate -C "$R5"
expect_grep "the base is created with the global content" '^only global$' "$R5/container/CLAUDE.md"

# ---- errors name the path and leave the tree consistent --------------------
R6=$T/errcase
make_root "$R6"
mkdir -p "$R6/groups/big" "$R6/groups/ok"
head -c 5000000 /dev/zero | tr '\0' 'x' >"$R6/groups/big/CLAUDE.md"
echo "ok persona" >"$R6/groups/ok/CLAUDE.md"
cp "$R6/groups/big/CLAUDE.md" "$T/big"
expect_fail 6 "an oversized CLAUDE.md: that group fails, exit 6" $CLAWMD migrate -C "$R6"
expect_grep "the message names the file" "groups/big/CLAUDE.md.*larger" "$T/err"
check "the oversized file is left as it was" cmp -s "$R6/groups/big/CLAUDE.md" "$T/big"
expect_file "the other groups still migrate" "$R6/groups/ok/CLAUDE.local.md" "ok persona"
check "the record lists the failed group" json_is "$R6/.clawmd/migrated.json" \
	'$g->($d->{failed}) eq "big" && join(",", @{$d->{groups}}) eq "big,ok"'
expect_ok "--json with a failed group still parses" sh -c "$CLAWMD migrate -C '$R6' --json >'$T/ej' 2>/dev/null; test \$? = 6"
check "the JSON lists the failure, and the retry ran only that group" json_is "$T/ej" \
	'!exists $d->{error} && $d->{failed}[0]{group} eq "big" &&
	index($d->{failed}[0]{message}, "groups/big") >= 0 && join(",", @{$d->{groups}}) eq "big"'
mv "$R6/groups/big/CLAUDE.md" "$T/big.moved"
expect_ok "fixed: the retry completes" $CLAWMD migrate -C "$R6"
check "and the record lists no failure any more, the groups as before" json_is "$R6/.clawmd/migrated.json" \
	'ref $d->{failed} eq "ARRAY" && !@{$d->{failed}} && join(",", @{$d->{groups}}) eq "big,ok"'
expect_ok "then: nothing to do" $CLAWMD migrate -C "$R6"
expect_grep "already migrated" "^already migrated" "$T/out"

# ---- hostile group contents: nothing is followed or read through ---------
R9=$T/hostile
make_root "$R9"
mkdir -p "$R9/groups/h" "$R9/groups/p" "$R9/outside/realglobal"
echo "outside memory" >"$R9/outside/mem"
printf 'H persona\n' >"$R9/groups/h/CLAUDE.md"
ln -s ../../outside/mem "$R9/groups/h/CLAUDE.local.md"
mkfifo "$R9/groups/p/CLAUDE.md"
mkdir "$R9/groups/p/.claude-global.md"
echo "real global" >"$R9/outside/realglobal/CLAUDE.md"
ln -s ../outside/realglobal "$R9/groups/global"
expect_ok "hostile tree migrates (no hang on a FIFO)" $HANG_GUARD $CLAWMD migrate -C "$R9"
expect_file "a symlinked CLAUDE.local.md's target is untouched" "$R9/outside/mem" "outside memory"
check "the symlinked CLAUDE.local.md is moved aside" sh -c "test -L '$R9'/groups/h/CLAUDE.local.md.clawmd-preserved-*"
expect_file "the persona goes into a fresh CLAUDE.local.md" "$R9/groups/h/CLAUDE.local.md" "H persona"
check "a FIFO CLAUDE.md is moved aside, not opened" sh -c "test -p '$R9'/groups/p/CLAUDE.md.clawmd-preserved-*"
check "a directory named .claude-global.md is kept" test -d "$R9/groups/p/.claude-global.md"
expect_grep "a symlinked groups/global is reported" '^skip +groups/global .*symlink' "$T/out"
check "a symlinked groups/global is left in place" test -L "$R9/groups/global"
expect_file "and its target is neither archived nor carried" "$R9/outside/realglobal/CLAUDE.md" "real global"
check "the base did not get the symlinked global's text" sh -c "! grep -q 'real global' '$R9/container/CLAUDE.md'"

# ---- issue 9, item 10: a 10 GiB sparse CLAUDE.local.md does not stop the host
R12=$T/sparse
make_root "$R12"
mkdir -p "$R12/groups/big" "$R12/groups/fine"
echo "big persona" >"$R12/groups/big/CLAUDE.md"
truncate -s 10G "$R12/groups/big/CLAUDE.local.md"
echo "fine persona" >"$R12/groups/fine/CLAUDE.md"
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" expect_fail 6 \
		"a 10 GiB CLAUDE.local.md: that group fails, exit 6" \
		strace -f -o "$T/sparse.trace" -e trace=read,pread64,mmap $CLAWMD migrate -C "$R12" -q
	# Everything read in the run, in bytes: far below the file's size.
	got=$(awk '/^[0-9]+ +(read|pread64)\(/ { n += $NF } END { print n + 0 }' "$T/sparse.trace")
	check "migrate read $got bytes, not the 10 GiB file" test "$got" -lt 1048576
else
	expect_fail 6 "a 10 GiB CLAUDE.local.md: that group fails, exit 6" \
		$HANG_GUARD $CLAWMD migrate -C "$R12" -q
	_report 0 "# SKIP strace unavailable: bytes read not counted"
fi
expect_grep "the failure names the file and its cap" "groups/big/CLAUDE.local.md.*larger than" "$T/err"
expect_file "the other group migrated" "$R12/groups/fine/CLAUDE.local.md" "fine persona"
expect_file "the failed group's CLAUDE.md is left as it was" "$R12/groups/big/CLAUDE.md" "big persona"
expect_eq "and its CLAUDE.local.md too" "$(stat -c %s "$R12/groups/big/CLAUDE.local.md")" "10737418240"
check "the record lists the failed group" json_is "$R12/.clawmd/migrated.json" \
	'$g->($d->{failed}) eq "big" && index($d->{failed}[0]{error}, "larger") >= 0'
# The README's host-startup snippet, run as written: the host starts.
sed -n '/^\*\*At host start: migrate\.\*\*/,/^```$/p' "$CLAWMD_SRC/README.md" |
	sed -n '/^```sh$/,/^```$/p' | sed '1d;$d' >"$T/startup.sh"
check "the README has a host-startup snippet" grep -q 'clawmd migrate' "$T/startup.sh"
expect_ok "README snippet: one bad group does not block the host" \
	env PATH="$T/bin:$PATH" ROOT="$R12" sh -c '. "$0"; echo host started' "$T/startup.sh"
expect_grep "README snippet: the host went on" '^host started$' "$T/out"
R13=$T/nostate
make_root "$R13"
mkdir -p "$R13/groups/a"
echo "a persona" >"$R13/groups/a/CLAUDE.md"
echo "not a directory" >"$R13/.clawmd"
expect_fail 1 "README snippet: a total failure (no state directory) still stops the host" \
	env PATH="$T/bin:$PATH" ROOT="$R13" sh -c '. "$0"; echo host started' "$T/startup.sh"
expect_fail 4 "a total failure is exit 4" $CLAWMD migrate -C "$R13"
check "a total failure writes no record and moves nothing" test -f "$R13/groups/a/CLAUDE.md" -a ! -e "$R13/groups/a/CLAUDE.local.md"

# ---- issue 9, item 13: groups/global/CLAUDE.md of every other type ---------
# (not under ASan, which valgrind cannot run: the probe would only fail)
vg=
if command -v valgrind >/dev/null 2>&1 && ! grep -q __asan_init "$CLAWMD_BUILD/libexec/clawmd/clawmd" &&
   valgrind -q --error-exitcode=99 "$CLAWMD" --help >/dev/null 2>&1; then
	# --trace-children: the front hands migrate to the full program.
	vg="valgrind -q --error-exitcode=99 --leak-check=no --trace-children=yes"
fi
for kind in symlink directory fifo socket; do
	RG=$T/global-$kind
	make_root "$RG"
	mkdir -p "$RG/groups/global" "$RG/groups/a"
	echo "a persona" >"$RG/groups/a/CLAUDE.md"
	case $kind in
	symlink) ln -s /etc/hostname "$RG/groups/global/CLAUDE.md" ;;
	directory) mkdir "$RG/groups/global/CLAUDE.md" ;;
	fifo) mkfifo "$RG/groups/global/CLAUDE.md" ;;
	socket) perl -MSocket -e 'socket(S, AF_UNIX, SOCK_STREAM, 0) &&
		bind(S, pack_sockaddr_un($ARGV[0])) or die "$!\n"' "$RG/groups/global/CLAUDE.md" ;;
	esac
	expect_ok "global CLAUDE.md a $kind: migrate succeeds${vg:+ (valgrind clean)}" \
		$HANG_GUARD $vg $CLAWMD migrate -C "$RG"
	expect_grep "global CLAUDE.md a $kind: kept, reported with its path" \
		'^keep +groups/global/CLAUDE\.md \(not a regular file' "$T/out"
	check "global CLAUDE.md a $kind: archived as it was" \
		sh -c "ls -A '$RG'/.clawmd/archive/global-*/ | grep -qx CLAUDE.md"
	expect_file "global CLAUDE.md a $kind: the base is unchanged" "$RG/container/CLAUDE.md" \
		"$(printf '# Shared base\n\nBe helpful.')"
done

# ---- CLAUDE.md already in CLAUDE.local.md: removed, nothing appended -------
R11=$T/already
make_root "$R11"
mkdir -p "$R11/groups/k"
printf '@./.claude-global.md\n\n# Persona K\nBe K.\n' >"$R11/groups/k/CLAUDE.md"
# What a killed run leaves after writing CLAUDE.local.md, plus what the
# agent wrote to its memory before the rerun.
printf '# Persona K\nBe K.\n\nThe agent remembered this.\n' >"$R11/groups/k/CLAUDE.local.md"
cp "$R11/groups/k/CLAUDE.local.md" "$T/k-local"
expect_ok "CLAUDE.md whose blocks are all in CLAUDE.local.md" $CLAWMD migrate -C "$R11"
expect_grep "reported as already there" '^remove-entry +groups/k/CLAUDE\.md .*already in CLAUDE\.local\.md' "$T/out"
check "CLAUDE.md removed" test ! -e "$R11/groups/k/CLAUDE.md"
check "CLAUDE.local.md untouched, nothing appended twice" cmp -s "$R11/groups/k/CLAUDE.local.md" "$T/k-local"

# ---- the carried memory stays the agent's: owner and mode kept ----------
if [ "$(id -u)" = 0 ]; then
	R10=$T/owner
	make_root "$R10"
	mkdir -p "$R10/groups/m" "$R10/groups/n"
	echo "M persona" >"$R10/groups/m/CLAUDE.md"
	chown 1234:2345 "$R10/groups/m/CLAUDE.md" && chmod 0600 "$R10/groups/m/CLAUDE.md"
	echo "N persona" >"$R10/groups/n/CLAUDE.md"
	echo "N memory" >"$R10/groups/n/CLAUDE.local.md"
	chown 1234:2345 "$R10/groups/n/CLAUDE.local.md" && chmod 0660 "$R10/groups/n/CLAUDE.local.md"
	expect_ok "migrate as root" $CLAWMD migrate -C "$R10"
	expect_eq "moved: CLAUDE.local.md has CLAUDE.md's owner and mode" \
		"$(stat -c '%u:%g %a' "$R10/groups/m/CLAUDE.local.md")" "1234:2345 600"
	expect_eq "appended: CLAUDE.local.md keeps its owner and mode" \
		"$(stat -c '%u:%g %a' "$R10/groups/n/CLAUDE.local.md")" "1234:2345 660"
else
	for i in 1 2 3; do _report 0 "# SKIP not root: ownership is kept only when root"; done
fi

R7=$T/nogroups
mkdir -p "$R7"
expect_fail 4 "a missing groups directory: exit 4" $CLAWMD migrate -C "$R7"
expect_grep "named in the message" "^clawmd: no groups directory 'groups': create it" "$T/err"
check "... and nothing made: no state directory" test ! -e "$R7/.clawmd"

# hold LOCKFILE: take the lock in the background until release() is called;
# returns once it is held (no sleeping on a guess).
hold() {
	rm -f "$T/release"
	flock "$1" sh -c 'while [ ! -e "$0" ]; do sleep 0.05; done' "$T/release" &
	holder=$!
	while flock -n "$1" true; do sleep 0.05; done
}
release() { touch "$T/release"; wait $holder; }
if command -v flock >/dev/null 2>&1; then
	R8=$T/locked
	make_root "$R8"
	mkdir -p "$R8/.clawmd/locks" "$R8/groups/a"
	echo persona >"$R8/groups/a/CLAUDE.md"
	hold "$R8/.clawmd/locks/.migrate"
	expect_fail 5 "another migrate holds the lock: exit 5" $CLAWMD migrate -C "$R8" --lock-timeout 0.2
	expect_file "nothing moved meanwhile" "$R8/groups/a/CLAUDE.md" "persona"
	release
	# A compose holding one group's lock: that group waits, then fails
	# with 5; the others migrate; no record, so the next start resumes.
	mkdir -p "$R8/groups/b"
	echo "b persona" >"$R8/groups/b/CLAUDE.md"
	hold "$R8/.clawmd/locks/a"
	expect_fail 6 "a group's lock held: that group fails, exit 6" $CLAWMD migrate -C "$R8" --lock-timeout 0.2
	expect_grep "the message names the lock" "locks/a" "$T/err"
	expect_file "the locked group is untouched" "$R8/groups/a/CLAUDE.md" "persona"
	expect_file "the other group migrated" "$R8/groups/b/CLAUDE.local.md" "b persona"
	expect_grep "the record lists the locked group as failed" '"group":[[:space:]]*"a"' "$R8/.clawmd/migrated.json"
	release
	expect_ok "with the lock free, the rerun completes" $CLAWMD migrate -C "$R8"
	expect_file "the locked group migrated" "$R8/groups/a/CLAUDE.local.md" "persona"
fi
# --- what migrate creates is ignored, or it says the line (issue 20, item 7)
if command -v git >/dev/null; then
	G=$T/gitted
	mkdir -p "$G/groups/main" "$G/container"
	printf 'Base.\n' >"$G/container/CLAUDE.md"
	printf 'Persona.\n' >"$G/groups/main/CLAUDE.md"
	git init -q "$G"
	expect_ok "migrate in a git tree" $CLAWMD migrate -C "$G"
	expect_grep "names the one line to add" \
		"^clawmd: warning: the groups' CLAUDE.local.md files are not ignored by git: add the line 'CLAUDE.local.md' to (.*/)?\.gitignore " "$T/err"
	check "... and does not touch .gitignore" test ! -e "$G/.gitignore"
	expect_file "the state directory ignores itself" "$G/.clawmd/.gitignore" "*"
	expect_eq "git sees nothing of .clawmd/" "$(git -C "$G" status --porcelain --untracked-files=all .clawmd)" ""
	expect_ok "a second run" $CLAWMD migrate -C "$G"
	expect_eq "... is quiet about it (once, in the run that migrates)" "$(cat "$T/err")" ""
	G2=$T/gitted2
	mkdir -p "$G2/groups/main" "$G2/container"
	printf 'Base.\n' >"$G2/container/CLAUDE.md"
	printf 'Persona.\n' >"$G2/groups/main/CLAUDE.md"
	printf 'groups/*\n' >"$G2/.gitignore"
	git init -q "$G2"
	expect_ok "migrate where the groups are ignored" $CLAWMD migrate -C "$G2" --json
	expect_eq "... says nothing" "$(cat "$T/err")" ""
	expect_grep "... gitignore_hint is null" '"gitignore_hint":[[:space:]]*null' "$T/out"
	expect_ok "compose" $CLAWMD compose -C "$G2" main
	expect_ok "... and check finds no CM403 on the tree clawmd set up" $CLAWMD check -C "$G2" main
fi
done_testing
