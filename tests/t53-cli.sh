#!/bin/sh
# The command line (DESIGN section 7): options before and after the command,
# GNU permutation and --, validation before any write (proved with strace),
# help COMMAND, -V, one-line errors with suggestions, one exit status per
# cause, messages naming what was typed, ROOT discovery (never inside the
# groups directory), paths relative to the current directory, unknown keys,
# check and status output (hints, summary, order, escaping), --color, JSON
# documents, init, and the shell completions.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
make_skill "$R" alpha
mkdir -p "$R/groups/main" "$R/groups/ops"
snap() { (cd "$1" && find . -printf '%p %y %s %T@\n' | sort); }
# The last command's stdout as input: expect_* truncate $T/out first.
last() { cp "$T/out" "$T/last"; echo "$T/last"; }

# --- permutation, --, validation before any write ------------------------
before=$(snap "$R")
expect_ok "compose GROUP --dry-run: the option after the operand" "$CLAWMD" compose -C "$R" main --dry-run
expect_eq "compose main --dry-run writes nothing" "$(snap "$R")" "$before"
expect_grep "and prints the plan" 'CLAUDE\.md' "$T/out"
if command -v strace >/dev/null; then
	ASAN_OPTIONS=detect_leaks=0 strace -f -q -o "$T/trace" "$CLAWMD" compose main --dry-run -C "$R" >/dev/null 2>&1
	expect_ok "strace: no mutating system call in compose main --dry-run" awk '
		/^[0-9]+ +(creat|mkdir|mkdirat|rename|renameat|renameat2|unlink|unlinkat|rmdir|symlink|symlinkat|link|linkat|chmod|fchmod|fchmodat|chown|fchown|fchownat|lchown|truncate|ftruncate|fallocate|utimensat|setxattr|fsetxattr)\(/ { print; bad = 1 }
		/^[0-9]+ +(open|openat|openat2)\(/ && /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC/ { print; bad = 1 }
		/^[0-9]+ +(write|pwrite64|writev)\(/ && !/^[0-9]+ +(write|pwrite64|writev)\([12],/ { print; bad = 1 }
		END { exit bad }' "$T/trace"
	check "strace saw the run" grep -q 'exited with 0' "$T/trace"
fi
expect_fail 3 "compose main ../x: an invalid operand" "$CLAWMD" compose -C "$R" main ../x
expect_eq "... fails before main is written" "$(snap "$R")" "$before"
expect_fail 4 "compose main nosuch: a missing group" "$CLAWMD" compose -C "$R" main nosuch
expect_eq "... fails before main is written" "$(snap "$R")" "$before"
expect_ok "layout option before the command" "$CLAWMD" -C "$R" compose -q main
check "... composed" test -f "$R/groups/main/CLAUDE.md"
expect_ok "--root=DIR after the operands" "$CLAWMD" compose ops -q --root="$R"
expect_ok "bundled short options (-nq)" "$CLAWMD" compose -nq -C "$R" main
expect_ok "-CDIR glued" "$CLAWMD" "-C$R" status main
expect_fail 3 "-- ends options: --all after it is an operand" "$CLAWMD" compose -C "$R" -q -- --all
expect_grep "... an invalid group name" "invalid group name '--all'" "$T/err"
expect_ok "-- then a group" "$CLAWMD" compose -C "$R" -q -- main
# A finding in main (a missing import), none in ops: --strict must see it.
printf '@./nosuch.md\n' >"$R/groups/main/CLAUDE.local.md"
expect_fail 1 "check main --strict: options after operands" "$CLAWMD" check main --strict -C "$R" --no-hints
check "... only main's findings, no hints" sh -c "! grep -v '^groups/main/' '$T/out'"
expect_ok "status main --json" "$CLAWMD" status main --json -C "$R"
expect_ok "... is one JSON document for main" perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	@{$d->{groups}} == 1 && $d->{groups}[0]{group} eq "main" or die' <"$(last)"

# --- help, version, unknown words ----------------------------------------
"$CLAWMD" compose --help >"$T/h1"
expect_ok "help compose" "$CLAWMD" help compose
expect_eq "help compose is compose --help" "$(cat "$T/out")" "$(cat "$T/h1")"
expect_ok "-V" "$CLAWMD" -V
expect_grep "-V prints the version" '^clawmd [0-9]+\.[0-9]+' "$T/out"
expect_ok "--version" "$CLAWMD" --version
expect_fail 2 "an unknown command" "$CLAWMD" compse main
expect_eq "one line, with a suggestion" "$(cat "$T/err")" \
	"clawmd: 'compse' is not a command; did you mean 'compose'? (see 'clawmd --help')"
expect_fail 2 "an unknown option" "$CLAWMD" compose -C "$R" --bogus main
expect_eq "one line" "$(wc -l <"$T/err" | tr -d ' ')" 1
expect_grep "naming the option" "^clawmd compose: unknown option '--bogus'" "$T/err"
expect_fail 2 "a misspelt option" "$CLAWMD" compose -C "$R" --dry main
expect_grep "suggests the spelling" "did you mean '--dry-run'\?" "$T/err"
expect_fail 2 "a misspelt option of check" "$CLAWMD" check -C "$R" --stritc
expect_grep "suggests --strict" "did you mean '--strict'\?" "$T/err"
expect_fail 2 "an unknown short option" "$CLAWMD" status -C "$R" -z
expect_eq "one line" "$(wc -l <"$T/err" | tr -d ' ')" 1
expect_fail 2 "a missing value" "$CLAWMD" check -C "$R" --cwd
expect_grep "names the option and its value" "option '--cwd' needs a value \(DIR\)" "$T/err"
expect_fail 2 "help for an unknown command" "$CLAWMD" help compse

# --- one exit status per cause; messages name what was typed -------------
for cmd in "compose" "check" "status" "render --group"; do
	expect_fail 4 "$cmd nosuch: 4" "$CLAWMD" $cmd nosuch -C "$R"
	expect_grep "$cmd: the message names the group" "no group 'nosuch': 'groups/nosuch' does not exist" "$T/err"
	expect_fail 3 "$cmd ../x: 3" "$CLAWMD" $cmd ../x -C "$R"
done
# An unwritable group directory is named as what was being written, not as
# a temp file that never came to exist.
if command -v setpriv >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
	U=$T/unwritable
	mkdir -p "$U/container" "$U/skills/a" "$U/groups/g" "$U/.clawmd"
	echo base >"$U/container/CLAUDE.md"
	echo A >"$U/skills/a/instructions.md"
	chmod 755 "$T" "$U"
	chmod 777 "$U/.clawmd"
	chmod 555 "$U/groups/g"
	# The build may live where uid 65534 cannot go (a clone under a 0700
	# directory): it runs a copy in $T, laid out as installed.
	mkdir -p "$T/uid/bin" "$T/uid/libexec/clawmd"
	cp "$CLAWMD_BUILD/libexec/clawmd/clawmd" "$T/uid/libexec/clawmd/"
	cp "$CLAWMD_BUILD/bin/clawmd" "$T/uid/bin/"
	chmod -R a+rX "$T/uid"
	case $CLAWMD in */libexec/clawmd/clawmd) uclawmd=$T/uid/libexec/clawmd/clawmd ;; *) uclawmd=$T/uid/bin/clawmd ;; esac
	nobody() { env -u LD_PRELOAD setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	if nobody test -x "$uclawmd"; then
		expect_fail 4 "an unwritable group directory" nobody "$uclawmd" compose -C "$U" g
		expect_grep "... named with the fragments it could not write" \
			"^clawmd: could not write 'groups/g/.claude-fragments': Permission denied$" "$T/err"
		check "... and no temp name in the message" sh -c "! grep -q '\.tmp' '$T/err'"
	else
		for i in 1 2 3; do
			echo "ok # skip uid 65534 cannot reach $T (TMPDIR under a directory closed to others)"
			_n=$((_n + 1))
		done
	fi
else
	echo "ok # skip setpriv or root missing: the unwritable-directory message"
	_n=$((_n + 1))
fi
expect_fail 2 "--lock-timeout -1" "$CLAWMD" compose -C "$R" --lock-timeout -1 main
expect_grep "names the flag as typed" "^clawmd: --lock-timeout: expected a number, not '-1'" "$T/err"
for v in nan NaN -nan; do
	expect_fail 2 "--lock-timeout $v" "$CLAWMD" compose -C "$R" --lock-timeout $v main
	expect_grep "... names the flag" "^clawmd: --lock-timeout: expected a number, not '$v'" "$T/err"
done
printf '{ "token_budget": "nan" }\n' >"$R/clawmd.json"
expect_fail 3 "clawmd.json token_budget: nan" "$CLAWMD" status -C "$R"
expect_grep "names the file and key" "clawmd.json: token_budget: expected a number, not 'nan'" "$T/err"
rm "$R/clawmd.json"
expect_fail 2 "--mode cpy" "$CLAWMD" compose -C "$R" main --mode cpy
expect_grep "names the flag" "^clawmd: --mode: expected 'symlink' or 'copy', not 'cpy'" "$T/err"
printf '{ "mode": "cpy" }\n' >"$R/clawmd.json"
expect_fail 3 "clawmd.json mode: cpy" "$CLAWMD" compose -C "$R" main
expect_grep "names the file and key" "clawmd.json: mode: expected 'symlink' or 'copy', not 'cpy'" "$T/err"
rm "$R/clawmd.json"

# --- unknown keys --------------------------------------------------------
printf '{ "skils": ["alpha"], "packages": {"apt": ["jq"]} }\n' >"$R/groups/ops/container.json"
expect_ok "a misspelt container.json key is not fatal" "$CLAWMD" compose -C "$R" ops
expect_grep "compose warns with a suggestion" \
	"^clawmd: warning: groups/ops/container.json: unknown key 'skils' \(did you mean 'skills'\?\); it is ignored$" "$T/err"
check "another tool's key passes silently" sh -c "! grep -q packages '$T/err'"
"$CLAWMD" check -C "$R" ops >"$T/out" 2>/dev/null
expect_grep "check reports CM304" "^groups/ops/container.json:1:4: warning: unknown key 'skils'.*\[CM304\]$" "$T/out"
printf '{ "grups": "groups", "mode": "copy", "container": { "bsae": "/x" } }\n' >"$R/clawmd.json"
expect_ok "an unknown clawmd.json key is not fatal" "$CLAWMD" compose -C "$R" -n main
expect_grep "every command warns, with the spelling" \
	"^clawmd: warning: clawmd.json: unknown key 'grups' \(did you mean 'groups'\?\); it is ignored$" "$T/err"
expect_grep "... for nested keys too" "unknown key 'container.bsae' \(did you mean 'container.base'\?\)" "$T/err"
"$CLAWMD" check -C "$R" main >"$T/out" 2>/dev/null
expect_grep "check reports CM305" "^clawmd.json:1:4: warning: unknown key 'grups'.*\[CM305\]$" "$T/out"
expect_ok "compose -q silences it" "$CLAWMD" compose -C "$R" -q -n main
expect_eq "... nothing on stderr" "$(cat "$T/err")" ""
rm "$R/clawmd.json"
printf '{ "skills": ["alpha"] }\n' >"$R/groups/ops/container.json"
"$CLAWMD" compose -q -C "$R" main ops

# --- ROOT discovery -------------------------------------------------------
# A monorepo subdirectory with a clawmd.json: found by walking up (no git).
M=$T/mono
mkdir -p "$M/agents/sub/deeper"
make_root "$M/agents"
mkdir -p "$M/agents/groups/g"
printf '{ "mode": "copy" }\n' >"$M/agents/clawmd.json"
expect_ok "ROOT from the nearest clawmd.json above" sh -c "cd '$M/agents/sub/deeper' && '$CLAWMD' status --json"
expect_grep "... is agents/" "\"root\":[[:space:]]*\"$M/agents\"" "$T/out"
# A git work tree without clawmd.json: found from .git, without libgit2.
G=$T/gitroot
make_root "$G"
mkdir -p "$G/groups/g" "$G/docs" "$G/.git"
expect_ok "ROOT from .git when there is no clawmd.json" sh -c "cd '$G/docs' && '$CLAWMD' status --json"
expect_grep "... is the work tree" "\"root\":[[:space:]]*\"$G\"" "$T/out"
if command -v strace >/dev/null; then
	(cd "$G/docs" && ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=openat -o "$T/trace" "$CLAWMD" compose -q g)
	check "libgit2 is not loaded to find ROOT" sh -c "! grep -q libgit2 '$T/trace'"
fi
# The agent's own git init and a planted clawmd.json in its group are never
# ROOT, when an operator runs clawmd inside the group.
mkdir -p "$G/groups/g/.git" "$G/groups/g/work" "$G/secret"
echo "host secret" >"$G/secret/CLAUDE.md"
printf '{ "groups": "..", "base": "../../secret/CLAUDE.md" }\n' >"$G/groups/g/clawmd.json"
expect_ok "inside a group: ROOT is still the host's" sh -c "cd '$G/groups/g/work' && '$CLAWMD' status --json g"
expect_grep "... the real ROOT" "\"root\":[[:space:]]*\"$G\"" "$T/out"
expect_ok "compose from inside the group" sh -c "cd '$G/groups/g' && '$CLAWMD' compose -q g"
check "the planted clawmd.json redirected nothing" sh -c "! grep -rq 'host secret' '$G/groups/g/'"
expect_ok "render --group from inside the group" sh -c "cd '$G/groups/g/work' && '$CLAWMD' render --group g --home /nonexistent --managed-dir /nonexistent"
check "... does not print the host file the planted base names" sh -c "! grep -q 'host secret' '$T/out'"
expect_ok "migrate --dry-run from inside the group" sh -c "cd '$G/groups/g' && '$CLAWMD' migrate --dry-run --json"
expect_grep "... plans for the real ROOT's groups" '"groups":[[:space:]]*\[' "$T/out"
check "... and not the planted groups directory" sh -c "! grep -q 'secret' '$T/out'"
# A host layout whose clawmd.json moves the groups directory.
printf '{ "groups": "agents" }\n' >"$G/clawmd.json"
mkdir -p "$G/agents/a/.git" "$G/agents/a/x"
printf '{}\n' >"$G/agents/a/clawmd.json"
expect_ok "with groups elsewhere, that directory is never ROOT either" \
	sh -c "cd '$G/agents/a/x' && '$CLAWMD' status --json"
expect_grep "... the real ROOT" "\"root\":[[:space:]]*\"$G\"" "$T/out"
rm -rf "$G/clawmd.json" "$G/agents"
# With no marker at the real ROOT at all, a composed group (it has
# .claude-fragments) is still never taken for ROOT.
N=$T/nomarker
make_root "$N"
mkdir -p "$N/groups/g"
"$CLAWMD" compose -q -C "$N" g
mkdir -p "$N/groups/g/.git"
printf '{ "base": "/etc/hostname" }\n' >"$N/groups/g/clawmd.json"
expect_fail 2 "a composed group with planted markers is not ROOT" sh -c "cd '$N/groups/g' && '$CLAWMD' status"
expect_grep "... no root is found instead" "no root" "$T/err"
# The same group after its agent removed .claude-fragments: the ROOT it is
# in has no marker but the layout's shape, which still rules it out (found
# by the red team: compose --all run there copied /etc/hostname into every
# group named by the planted clawmd.json).
rm -rf "$N/groups/g/.claude-fragments" "$N/groups/g/.git"
printf '{ "groups": "..", "base": "/etc/hostname", "mode": "copy" }\n' >"$N/groups/g/clawmd.json"
expect_fail 2 "a group with its fragments removed and clawmd.json planted is not ROOT" \
	sh -c "cd '$N/groups/g' && '$CLAWMD' compose --all"
check "... nothing was composed from the planted base" sh -c "! grep -rqs \"\$(cat /etc/hostname)\" '$N/groups'"
expect_fail 2 "no ROOT at all" sh -c "cd / && '$CLAWMD' status"
expect_grep "says how to give one" "no root: pass -C DIR" "$T/err"

# --- paths relative to the current directory ------------------------------
printf '@./missing.md\n' >"$G/groups/g/CLAUDE.local.md"
(cd "$G/docs" && "$CLAWMD" check g --no-hints) >"$T/out" 2>/dev/null
expect_grep "from a subdirectory: ../groups/..." '^\.\./groups/g/CLAUDE\.local\.md:1:1: error: .*\[CM101\]$' "$T/out"
(cd "$G/groups/g" && "$CLAWMD" check g --no-hints) >"$T/out" 2>/dev/null
expect_grep "from the group: CLAUDE.local.md" '^CLAUDE\.local\.md:1:1: error: .*\[CM101\]$' "$T/out"
(cd "$G/groups/g" && "$CLAWMD" -C "$G" check g --no-hints) >"$T/out" 2>/dev/null
expect_grep "with -C: relative to ROOT, as git -C" '^groups/g/CLAUDE\.local\.md:1:1: error: ' "$T/out"

# --- check: hints and summary off a terminal, order, real group names ---
printf '@./b-missing.md\n@./a-missing.md\n' >"$R/groups/main/CLAUDE.local.md"
printf '{ "skills": ["alpha"], "mcpServers": { "m": { "instructions": "hi" } } }\n' >"$R/groups/ops/container.json"
"$CLAWMD" check -C "$R" >"$T/out" 2>"$T/err"
expect_grep "hints off a terminal" '^    hint: ' "$T/out"
expect_grep "a summary off a terminal" '^clawmd: [0-9]+ errors?, [0-9]+ warnings?, [0-9]+ notes? in 2 groups$' "$T/err"
grep -v '^    hint:' "$T/out" >"$T/lines"
sort -t: -k1,1 -k2,2n -k3,3n "$T/lines" >"$T/sorted"
expect_eq "findings sorted by file, line, column" "$(cat "$T/lines")" "$(cat "$T/sorted")"
expect_grep "the CM402 hint names the real group" "hint: run 'clawmd compose ops'" "$T/out"
check "no literal GROUP in hints" sh -c "! grep -q 'compose GROUP' '$T/out'"
expect_ok "-q: no summary" sh -c "'$CLAWMD' check -q -C '$R' >/dev/null 2>'$T/e2'; test ! -s '$T/e2'"
rm "$R/groups/main/CLAUDE.local.md"
printf '{ "skills": ["alpha"] }\n' >"$R/groups/ops/container.json"
"$CLAWMD" compose -q -C "$R" main ops

# CM403 stays quiet for a CLAUDE.local.md that does not exist.
if command -v git >/dev/null; then
	Q=$T/gitq
	make_root "$Q"
	mkdir -p "$Q/groups/g"
	git init -q "$Q"
	"$CLAWMD" compose -q -C "$Q" g
	rm -f "$Q/groups/g/CLAUDE.local.md"
	"$CLAWMD" check -C "$Q" g >"$T/out" 2>/dev/null
	check "CM403 quiet for an absent CLAUDE.local.md" sh -c "! grep -q CM403 '$T/out'"
	echo notes >"$Q/groups/g/CLAUDE.local.md"
	"$CLAWMD" check -C "$Q" g >"$T/out" 2>/dev/null
	expect_grep "CM403 for a present, unignored one" '\[CM403\]$' "$T/out"
fi

# CM301: defused by compose, or live in the fragment on disk.
printf '{ "mcpServers": { "s": { "instructions": "see @./notes.md" } } }\n' >"$R/groups/ops/container.json"
"$CLAWMD" compose -q -C "$R" ops
"$CLAWMD" check -C "$R" ops >"$T/out" 2>/dev/null
expect_grep "CM301: defused" "defused by compose in the fragment.*\[CM301\]$" "$T/out"
printf 'see @./notes.md\n' >"$R/groups/ops/.claude-fragments/mcp-s.md"
"$CLAWMD" check -C "$R" ops >"$T/out" 2>/dev/null
expect_grep "CM301: live when the fragment imports it" "LIVE in the fragment on disk.*\[CM301\]$" "$T/out"
printf '{ "skills": ["alpha"] }\n' >"$R/groups/ops/container.json"
"$CLAWMD" compose -q -C "$R" ops

# Preserved leftovers: a CM404 finding, and status counts them.
echo "keep me" >"$R/groups/ops/CLAUDE.local.md"
echo "a hand edit" >>"$R/groups/ops/CLAUDE.md"
expect_ok "compose moves the edit aside" "$CLAWMD" compose -C "$R" ops
"$CLAWMD" check -C "$R" ops >"$T/out" 2>/dev/null
expect_grep "check reports the leftover" '^groups/ops/CLAUDE\.md\.clawmd-preserved-[^:]*:1:1: warning: .*\[CM404\]$' "$T/out"
"$CLAWMD" status -C "$R" >"$T/out" 2>/dev/null
expect_grep "status has a PRESERVED column" '^GROUP +STATE +SKILLS +FRAGMENTS +CHARS +TOKENS +FINDINGS +PRESERVED ' "$T/out"
expect_grep "... with the count" '^ops +clean +1 +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +1 ' "$T/out"
"$CLAWMD" status -C "$R" >/dev/null 2>"$T/err"
expect_grep "status: a summary line off a terminal" '^clawmd: 2 groups: 2 clean, 0 would change, .*; [0-9]+ findings? \([0-9]+ errors?\), 1 preserved$' "$T/err"
expect_grep "status: a hint off a terminal" "^    hint: 'clawmd check' lists the findings, and the entries compose moved aside" "$T/err"
echo '{ "skills": [] }' >"$R/groups/main/container.json"
"$CLAWMD" status -C "$R" >/dev/null 2>"$T/err"
expect_grep "status: the hint names the real groups" "^    hint: 'clawmd compose main' brings them up to date" "$T/err"
rm "$R/groups/main/container.json"
"$CLAWMD" status -C "$R" -q >/dev/null 2>"$T/err"
expect_eq "status -q: no summary" "$(cat "$T/err")" ""
"$CLAWMD" status -C "$R" --format json ops >"$T/out"
expect_ok "status JSON: preserved" perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>); $d->{groups}[0]{preserved} == 1 or die' <"$(last)"
rm -f "$R/groups/ops/CLAUDE.md.clawmd-preserved-"*

# --- escaping: the agent cannot forge findings ---------------------------
esc=$(printf '\033')
mkdir -p "$R/groups/main/.claude/rules"
nl='
'
printf -- '---\npaths: [\n---\nx\n' >"$R/groups/main/.claude/rules/a${nl}CLAUDE.md:1:1: error: forged [CM999]${nl}::error::forged${esc}]0;title.md"
printf '@./x%s]0;pwned%s.md\n' "$esc" "$(printf '\007')" >"$R/groups/main/CLAUDE.local.md"
"$CLAWMD" check -C "$R" main >"$T/out" 2>"$T/err"
check "no raw ESC or BEL in the output" sh -c "! grep -q '[$esc$(printf '\007')]' '$T/out' '$T/err'"
check "no forged finding line" sh -c "! grep -q '^CLAUDE.md:1:1: error: forged' '$T/out'"
check "no forged workflow command" sh -c "! grep -q '^::error::' '$T/out'"
check "every line is a finding or a hint" sh -c "! grep -Ev '^(    hint: |[^ ].*:[0-9]+:[0-9]+: (error|warning|note): .* \[CM[0-9]+\]$)' '$T/out'"
expect_grep "the newline is shown escaped" 'a\\nCLAUDE\.md:1:1: error: forged \[CM999\]\\n::error::forged\\x1b\]0;title\.md' "$T/out"
"$CLAWMD" render -C "$R" --group main --format files >"$T/out"
check "render --format files: no raw ESC" sh -c "! grep -q '$esc' '$T/out'"
check "render --format files: every row has three fields" sh -c "awk -F'\t' 'NF != 3 { exit 1 }' '$T/out'"
rm -rf "$R/groups/main/.claude" "$R/groups/main/CLAUDE.local.md"

# --- colour --------------------------------------------------------------
printf '@./nothing.md\n' >"$R/groups/main/CLAUDE.local.md"
"$CLAWMD" check -C "$R" main --color=always >"$T/out" 2>/dev/null
expect_grep "--color=always colours a pipe" "$esc\[1;31merror$esc\[0m" "$T/out"
"$CLAWMD" check -C "$R" main --color=never >"$T/out" 2>/dev/null
check "--color=never: none" sh -c "! grep -q '$esc' '$T/out'"
expect_fail 2 "--color=sometimes" "$CLAWMD" check -C "$R" main --color=sometimes
if command -v script >/dev/null; then
	env -u NO_COLOR TERM=dumb script -qec "'$CLAWMD' check -C '$R' main" /dev/null >"$T/tty" 2>&1
	check "TERM=dumb: no colour on a terminal" sh -c "! grep -q '$esc\[' '$T/tty'"
	env -u NO_COLOR TERM=xterm script -qec "'$CLAWMD' check -C '$R' main" /dev/null >"$T/tty" 2>&1
	expect_grep "TERM=xterm: colour on a terminal" "$esc\[1;31merror" "$T/tty"
	env NO_COLOR=1 TERM=xterm script -qec "'$CLAWMD' check -C '$R' main" /dev/null >"$T/tty" 2>&1
	check "NO_COLOR: none" sh -c "! grep -q '$esc\[' '$T/tty'"
	env NO_COLOR=1 TERM=xterm script -qec "'$CLAWMD' check -C '$R' main --color=never" /dev/null >"$T/tty" 2>&1
	expect_grep "hints and summary on a terminal too" '^clawmd: [0-9]+ errors?, ' "$T/tty"
fi
rm "$R/groups/main/CLAUDE.local.md"

# --- JSON documents: version everywhere, one error shape -----------------
jshape='local $/; my $d = decode_json(<STDIN>); ref $d eq "HASH" or die "not an object\n";
	$d->{tool} eq "clawmd" && $d->{version} =~ /^\d+\.\d+/ or die "tool/version\n";'
"$CLAWMD" compose -C "$R" --json main >"$T/out"
expect_ok "compose --json: tool and version" perl -MJSON::PP -e "$jshape" <"$(last)"
"$CLAWMD" check -C "$R" --json main >"$T/out" 2>/dev/null
expect_ok "check --json: tool and version" perl -MJSON::PP -e "$jshape" <"$(last)"
"$CLAWMD" status -C "$R" --format json >"$T/out"
expect_ok "status --format json: tool and version" perl -MJSON::PP -e "$jshape" <"$(last)"
"$CLAWMD" render -C "$R" --group main --json >"$T/out"
expect_ok "render --json: tool, version, files" perl -MJSON::PP -e "$jshape"'
	ref $d->{files} eq "ARRAY" or die "files\n"' <"$(last)"
"$CLAWMD" render -C "$R" --group main --json --target CLAUDE.md >"$T/out"
expect_ok "render --json --target: an object with attachments" perl -MJSON::PP -e "$jshape"'
	ref $d->{attachments} eq "ARRAY" or die "attachments\n"' <"$(last)"
"$CLAWMD" migrate -C "$R" --json --dry-run >"$T/out"
expect_ok "migrate --json: tool and version" perl -MJSON::PP -e "$jshape" <"$(last)"
eshape="$jshape"'
	$d->{error}{status} == $ARGV[0] or die "status $d->{error}{status}\n";
	$d->{error}{message} =~ /$ARGV[1]/ or die "message $d->{error}{message}\n";'
expect_fail 4 "status --format json nosuch" "$CLAWMD" status -C "$R" --format json nosuch
expect_ok "... the error shape" perl -MJSON::PP -e "$eshape" 4 "no group 'nosuch'" <"$(last)"
expect_fail 4 "render --json --group nosuch" "$CLAWMD" render -C "$R" --json --group nosuch
expect_ok "... the same shape" perl -MJSON::PP -e "$eshape" 4 "no group 'nosuch'" <"$(last)"
expect_fail 4 "compose --json nosuch" "$CLAWMD" compose -C "$R" --json nosuch
expect_ok "... the same shape" perl -MJSON::PP -e "$eshape" 4 "no group 'nosuch'" <"$(last)"
expect_fail 4 "check --json nosuch" "$CLAWMD" check -C "$R" --json nosuch
expect_ok "... the same shape" perl -MJSON::PP -e "$eshape" 4 "no group 'nosuch'" <"$(last)"
expect_fail 2 "status --format xml" "$CLAWMD" status -C "$R" --format xml
expect_grep "names the flag, what it takes and what it got" "^clawmd status: --format: expected table or json, not 'xml'" "$T/err"

# --- init ----------------------------------------------------------------
I=$T/init
expect_ok "init DIR" "$CLAWMD" init "$I"
for f in container/CLAUDE.md clawmd.json .gitignore; do check "init: $f" test -f "$I/$f"; done
for d in skills groups; do check "init: $d/" test -d "$I/$d"; done
expect_ok "clawmd.json has mode and claude_version" perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	$d->{mode} eq "copy" && $d->{claude_version} =~ /^\d+\.\d+\.\d+$/ or die' <"$I/clawmd.json"
expect_grep ".gitignore: CLAUDE.local.md" '^CLAUDE\.local\.md$' "$I/.gitignore"
expect_grep ".gitignore: the state directory" '^/\.clawmd/$' "$I/.gitignore"
mkdir "$I/groups/main"
expect_ok "the scaffold composes" "$CLAWMD" -C "$I" compose main
expect_ok "and checks clean" "$CLAWMD" -C "$I" check --strict main
before=$(snap "$I")
expect_ok "init on its own layout adopts it" "$CLAWMD" init "$I"
expect_grep "says what it left" "^left $I/container/CLAUDE.md \(already there\)$" "$T/out"
expect_eq "... and changes nothing" "$(snap "$I")" "$before"
I2=$T/init2
mkdir -p "$I2"
printf 'node_modules\n' >"$I2/.gitignore"
echo keep >"$I2/clawmd.json"
expect_ok "init adopts a tree holding only clawmd.json and .gitignore" "$CLAWMD" -C "$I2" init
expect_grep "... leaves clawmd.json" "^left $I2/clawmd.json \(already there\)$" "$T/out"
expect_grep "... creates the base" "^created $I2/container/CLAUDE.md$" "$T/out"
expect_eq "... clawmd.json untouched" "$(cat "$I2/clawmd.json")" "keep"
expect_eq ".gitignore kept, lines added" "$(cat "$I2/.gitignore")" "node_modules
CLAUDE.local.md
/.clawmd/
/groups/*/AGENTS.md"
I2=$T/init2b
mkdir -p "$I2"
printf 'node_modules' >"$I2/.gitignore"
expect_ok "init -C DIR --preset nanoclaw --claude-version 2.1.128 --mode symlink" \
	"$CLAWMD" -C "$I2" init --preset nanoclaw --claude-version 2.1.128 --mode symlink
check "nanoclaw: container/skills" test -d "$I2/container/skills"
expect_grep "the version" '"claude_version":[[:space:]]*"2\.1\.128"' "$I2/clawmd.json"
expect_eq ".gitignore without a final newline: lines added after one" "$(cat "$I2/.gitignore")" "node_modules
CLAUDE.local.md
/.clawmd/
/groups/*/AGENTS.md"
# A nanoclaw checkout: its base, skills, modules and groups stay; init adds
# clawmd.json and the state line (nanoclaw already ignores **/CLAUDE.local.md).
N=$T/nano
mkdir -p "$N/container/skills/web" "$N/container/agent-runner/src/mcp-tools" "$N/groups/main"
printf 'Base.\n' >"$N/container/CLAUDE.md"
printf 'Web.\n' >"$N/container/skills/web/instructions.md"
printf 'Core.\n' >"$N/container/agent-runner/src/mcp-tools/core.instructions.md"
printf 'groups/*\n**/CLAUDE.local.md\n' >"$N/.gitignore"
before=$(snap "$N")
expect_fail 3 "init without --preset on a nanoclaw checkout" "$CLAWMD" init "$N"
expect_grep "... names --preset nanoclaw" "run 'clawmd init --preset nanoclaw'" "$T/err"
expect_eq "... and changes nothing" "$(snap "$N")" "$before"
expect_ok "init --preset nanoclaw adopts a nanoclaw checkout" "$CLAWMD" init --preset nanoclaw "$N"
expect_eq "... the base is kept" "$(cat "$N/container/CLAUDE.md")" "Base."
expect_grep "... clawmd.json names the preset" '"preset":[[:space:]]*"nanoclaw"' "$N/clawmd.json"
expect_eq "... only the missing line is added" "$(cat "$N/.gitignore")" "groups/*
**/CLAUDE.local.md
/.clawmd/"
expect_ok "... and the adopted tree composes" "$CLAWMD" -C "$N" compose main
expect_grep "... with its skill and module" '^@\./\.claude-fragments/module-core\.md$' "$N/groups/main/CLAUDE.md"
# Nothing is created through a symlink on the way (issue 18, item 5).
E=$T/evil
mkdir -p "$E" "$T/outside"
ln -s ../outside "$E/container"
expect_fail 4 "init refuses DIR/container as a symlink" "$CLAWMD" init "$E"
expect_grep "... names it" "$E/container is a symlink" "$T/err"
check "... nothing written through it" test -z "$(ls -A "$T/outside")"
check "... nothing created beside it" test ! -e "$E/groups" -a ! -e "$E/clawmd.json"
rm "$E/container"
mkdir -p "$E/container"
ln -s ../../outside "$E/container/CLAUDE.md"
expect_fail 4 "init refuses container/CLAUDE.md as a symlink" "$CLAWMD" init "$E"
check "... nothing written through it" test -z "$(ls -A "$T/outside")"
rm "$E/container/CLAUDE.md"
ln -s "$T/outside" "$E/groups"
expect_fail 4 "init refuses groups as a symlink" "$CLAWMD" init "$E"
rm "$E/groups"
ln -s "$T/outside/ig" "$E/.gitignore"
expect_fail 4 "init refuses a symlinked .gitignore" "$CLAWMD" init "$E"
check "... nothing written through it" test -z "$(ls -A "$T/outside")"
rm "$E/.gitignore"
expect_ok "... and scaffolds once the links are gone" "$CLAWMD" -q init "$E"
expect_eq "-q before the command: init prints nothing" "$(cat "$T/out")" ""
expect_fail 3 "init --mode cpy" "$CLAWMD" init --mode cpy "$T/init3"
check "... creates nothing" test ! -e "$T/init3"

# --- completions: groups from the layout, clawmd.json included -----------
mkdir -p "$R/teams/t1" "$R/teams/t2"
printf '{ "groups": "teams" }\n' >"$R/clawmd.json"
expect_ok "__complete groups" "$CLAWMD" -C "$R" __complete groups
expect_eq "... follows clawmd.json" "$(cat "$T/out" | tr '\n' ' ')" "t1 t2 "
rm "$R/clawmd.json"
S=$CLAWMD_SRC/contrib
bindir=$(dirname "$CLAWMD")
if command -v zsh >/dev/null; then
	expect_ok "zsh completion parses" zsh -n "$S/_clawmd"
	expect_ok "zsh completion completes groups" env PATH="$bindir:$PATH" zsh -f -c "
		source <(sed '\$d' '$S/_clawmd')
		_describe() { print -l -- \${(P)\${@[-1]}} }
		words=(clawmd -C '$R' compose ''); CURRENT=4
		_clawmd_groups"
	expect_grep "... main and ops" '^main$' "$T/out"
fi
if command -v fish >/dev/null; then
	expect_ok "fish completion parses" fish -n "$S/clawmd.fish"
	expect_ok "fish completion completes groups" env PATH="$bindir:$PATH" fish -c "
		source '$S/clawmd.fish'; complete -C 'clawmd -C $R compose '"
	expect_grep "... main" '^main' "$T/out"
	expect_ok "fish completion completes options" env PATH="$bindir:$PATH" fish -c "
		source '$S/clawmd.fish'; complete -C 'clawmd compose --dr'"
	expect_grep "... --dry-run" '^--dry-run' "$T/out"
fi
expect_ok "bash completion: groups through clawmd" env PATH="$bindir:$PATH" bash -c "
	. '$S/clawmd.bash-completion'
	COMP_WORDS=(clawmd -C '$R' compose ''); COMP_CWORD=4; _clawmd
	printf '%s\n' \"\${COMPREPLY[@]}\""
expect_grep "... main" '^main$' "$T/out"
expect_ok "bash completion: options after an operand" env PATH="$bindir:$PATH" bash -c "
	. '$S/clawmd.bash-completion'
	COMP_WORDS=(clawmd compose main --dr); COMP_CWORD=3; _clawmd
	printf '%s\n' \"\${COMPREPLY[@]}\""
expect_grep "... --dry-run" '^--dry-run$' "$T/out"

# --- the demo prints commands that work when pasted -----------------------
D=$T/repo
mkdir -p "$D/build"
cp -R "$CLAWMD_SRC/container" "$CLAWMD_SRC/skills" "$CLAWMD_SRC/scripts" "$D/"
ln -s "$CLAWMD" "$D/build/clawmd"
expect_ok "make demo's script runs" sh "$D/scripts/demo.sh" "$D/build/clawmd"
grep '^\$ build/clawmd ' "$T/out" | sed 's/^\$ //' >"$T/cmds"
check "it prints its clawmd commands" test "$(wc -l <"$T/cmds")" -ge 8
while IFS= read -r line; do
	(cd "$D" && eval "$line") >/dev/null 2>"$T/err"
	st=$?
	check "pasted from the repository root, exit $st: $line" test "$st" -le 1
done <"$T/cmds"
done_testing
