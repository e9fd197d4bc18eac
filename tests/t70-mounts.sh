#!/bin/sh
# mounts: what a container runner binds for a group, in both modes, for
# each provider and the nanoclaw preset, as docker -v arguments, JSON and
# Kubernetes volumeMounts; read-only over the group everything compose
# wrote there; refusals before compose, for paths docker cannot carry and
# sources outside ROOT; reads only.
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
make_skill "$R" alpha
make_skill "$R" beta
G=$R/groups/main
mkdir -p "$G"
printf '{"mcpServers": {"cal": {"command": "c", "instructions": "Dates."}}}\n' >"$G/container.json"

# Before compose: docker's -v would make a directory where the entry belongs.
expect_fail 4 "docker before compose: exit 4" $CLAWMD mounts -C "$R" main
expect_grep "... naming the missing file and the fix" "^clawmd mounts: 'groups/main/[^']*': not there yet.*clawmd compose" "$T/err"
expect_ok "json before compose lists what compose will write" $CLAWMD mounts -C "$R" --json main
cp "$T/out" "$T/json0"
expect_ok "... with present: false" perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	my ($e) = grep { $_->{what} eq "entry" } @{$d->{mounts}};
	!$e->{present} or die "present\n"' <"$T/json0"

expect_ok "compose (copy mode)" $CLAWMD compose -q -C "$R" --mode copy main
before=$(cd "$R" && find . -printf '%p %i %T@ %s %m\n' | sort)
expect_ok "mounts: copy mode" $CLAWMD mounts -C "$R" --mode copy main
expect_file "the group rw, clawmd's files ro over it, the sources ro under /app" "$T/out" "-v
$G:/workspace/agent
-v
$G/.claude-fragments:/workspace/agent/.claude-fragments:ro
-v
$G/.claude-shared.md:/workspace/agent/.claude-shared.md:ro
-v
$G/CLAUDE.md:/workspace/agent/CLAUDE.md:ro
-v
$R/container/CLAUDE.md:/app/CLAUDE.md:ro
-v
$R/skills:/app/skills:ro"
check "CLAUDE.local.md (the memory) is not mounted read-only" sh -c "! grep -q CLAUDE.local '$T/out'"
expect_ok "docker, the default format, is --format docker" $CLAWMD mounts -C "$R" --mode copy --format docker main
cp "$T/out" "$T/docker2"
$CLAWMD mounts -C "$R" --mode copy main >"$T/docker1"
check "... the same" cmp -s "$T/docker1" "$T/docker2"

expect_ok "--format json" $CLAWMD mounts -C "$R" --mode copy --format json main
cp "$T/out" "$T/json"
check "... valid JSON" json_strict "$T/json"
expect_ok "... every mount with what, host, container, readonly, type, sub, present" perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	$d->{group} eq "main" && $d->{mode} eq "copy" or die "group/mode\n";
	join(",", @{$d->{runtimes}}) eq "claude" or die "runtimes\n";
	my $got = join "\n", map { join " ", $_->{what}, $_->{container}, $_->{readonly} ? "ro" : "rw",
		$_->{type}, $_->{sub} // "null", $_->{present} ? "present" : "absent" } @{$d->{mounts}};
	my $want = join "\n",
		"group /workspace/agent rw directory  present",
		"fragments /workspace/agent/.claude-fragments ro directory .claude-fragments present",
		"shared /workspace/agent/.claude-shared.md ro file .claude-shared.md present",
		"entry /workspace/agent/CLAUDE.md ro file CLAUDE.md present",
		"source /app/CLAUDE.md ro file container/CLAUDE.md present",
		"source /app/skills ro directory skills present";
	$got eq $want or die "got:\n$got\n";
	$d->{mounts}[0]{host} eq $ARGV[0] or die "host\n"' "$G" <"$T/json"

expect_ok "--format kubernetes" $CLAWMD mounts -C "$R" --mode copy --format kubernetes main
cp "$T/out" "$T/kube"
expect_ok "... volumeMounts by subPath of the group's volume and the layout's" python3 -c '
import sys
lines = [l for l in open(sys.argv[1]).read().splitlines() if not l.startswith("#")]
want = """volumeMounts:
  - name: clawmd-group
    mountPath: "/workspace/agent"
  - name: clawmd-group
    mountPath: "/workspace/agent/.claude-fragments"
    subPath: ".claude-fragments"
    readOnly: true
  - name: clawmd-group
    mountPath: "/workspace/agent/.claude-shared.md"
    subPath: ".claude-shared.md"
    readOnly: true
  - name: clawmd-group
    mountPath: "/workspace/agent/CLAUDE.md"
    subPath: "CLAUDE.md"
    readOnly: true
  - name: clawmd-layout
    mountPath: "/app/CLAUDE.md"
    subPath: "container/CLAUDE.md"
    readOnly: true
  - name: clawmd-layout
    mountPath: "/app/skills"
    subPath: "skills"
    readOnly: true""".splitlines()
if lines != want:
    sys.exit("\n".join(lines))' "$T/kube"
expect_ok "--group-volume and --layout-volume name the volumes" \
	$CLAWMD mounts -C "$R" --mode copy --format kubernetes --group-volume agent-home --layout-volume layout main
check "... both" sh -c "grep -q 'name: agent-home' '$T/out' && grep -q 'name: layout$' '$T/out' && ! grep -q clawmd-group '$T/out'"
expect_fail 2 "a volume name Kubernetes refuses: exit 2" \
	$CLAWMD mounts -C "$R" --format kubernetes --group-volume Bad_Name main
expect_grep "... naming the option" "--group-volume: 'Bad_Name' is not a volume name" "$T/err"
expect_eq "mounts reads only" "$(cd "$R" && find . -printf '%p %i %T@ %s %m\n' | sort)" "$before"

# Symlink mode: the links cannot be mount points; what they point at is
# read-only, and .claude-fragments (holding the links and the MCP copy) is.
expect_ok "compose (symlink mode)" $CLAWMD compose -q -C "$R" --mode symlink main
expect_ok "mounts: symlink mode" $CLAWMD mounts -C "$R" --mode symlink main
expect_file "the fragments directory and the entry ro, the sources ro" "$T/out" "-v
$G:/workspace/agent
-v
$G/.claude-fragments:/workspace/agent/.claude-fragments:ro
-v
$G/CLAUDE.md:/workspace/agent/CLAUDE.md:ro
-v
$R/container/CLAUDE.md:/app/CLAUDE.md:ro
-v
$R/skills:/app/skills:ro"
cp "$T/out" "$T/sym"
expect_ok "symlink mode with the mode in clawmd.json" sh -c \
	"printf '{\"mode\": \"symlink\"}\n' >'$R/clawmd.json' && $CLAWMD mounts -C '$R' main >'$T/sym2' && cmp '$T/sym' '$T/sym2'"
rm "$R/clawmd.json"

# A group whose provider is Codex and one that runs several runtimes: each
# entry file is mounted read-only.
mkdir -p "$R/groups/cx" "$R/groups/both"
printf '{"provider": "codex"}\n' >"$R/groups/cx/container.json"
printf '{"runtimes": ["claude", "gemini", "opencode"]}\n' >"$R/groups/both/container.json"
expect_ok "compose them" $CLAWMD compose -q -C "$R" --mode copy cx both
expect_ok "mounts: provider codex" $CLAWMD mounts -C "$R" --mode copy cx
expect_grep "AGENTS.md read-only" "^$R/groups/cx/AGENTS.md:/workspace/agent/AGENTS.md:ro\$" "$T/out"
expect_ok "mounts: claude, gemini and opencode" $CLAWMD mounts -C "$R" --mode copy both
expect_eq "each entry file once" "$(grep -o '/workspace/agent/[A-Z]*\.md:ro' "$T/out" | tr '\n' ' ')" \
	"/workspace/agent/AGENTS.md:ro /workspace/agent/CLAUDE.md:ro /workspace/agent/GEMINI.md:ro "

# The nanoclaw preset: /app/src (the agent runner's sources) holds the
# modules' directory, which is not mounted a second time.
N=$T/nano
mkdir -p "$N/container/skills/web" "$N/container/agent-runner/src/mcp-tools" "$N/groups/main"
printf 'Base.\n' >"$N/container/CLAUDE.md"
printf 'Web.\n' >"$N/container/skills/web/instructions.md"
printf 'Schedule.\n' >"$N/container/agent-runner/src/mcp-tools/scheduling.instructions.md"
expect_ok "compose a nanoclaw group" $CLAWMD compose -q -C "$N" --preset nanoclaw --mode copy main
expect_ok "mounts: nanoclaw" $CLAWMD mounts -C "$N" --preset nanoclaw --mode copy main
expect_eq "the runner's /app mounts, each once" "$(grep -o ':/app[^:]*:ro' "$T/out" | tr '\n' ' ')" \
	":/app/CLAUDE.md:ro :/app/skills:ro :/app/src:ro "
expect_grep "container/agent-runner/src at /app/src" "^$N/container/agent-runner/src:/app/src:ro\$" "$T/out"

# The agent swapped clawmd's files for links to host files between
# sessions: docker would follow them, so they are "not there".
H=$R/groups/cx
mv "$H/AGENTS.md" "$T/agents.bak"
ln -s /etc/hostname "$H/AGENTS.md"
expect_fail 4 "an entry swapped for a symlink: docker refuses" $CLAWMD mounts -C "$R" --mode copy cx
expect_grep "... naming it" "groups/cx/AGENTS.md': not there yet" "$T/err"
expect_ok "json lists it as not present" $CLAWMD mounts -C "$R" --mode copy --json cx
cp "$T/out" "$T/json2"
expect_ok "... present: false, the host path the group's" perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>);
	my ($e) = grep { $_->{container} eq "/workspace/agent/AGENTS.md" } @{$d->{mounts}};
	!$e->{present} && $e->{host} =~ m{/groups/cx/AGENTS.md$} or die "entry\n"' <"$T/json2"
rm "$H/AGENTS.md"
mv "$H/.claude-fragments" "$T/frag.bak"
ln -s /etc "$H/.claude-fragments"
expect_fail 4 "a symlinked .claude-fragments: docker refuses" $CLAWMD mounts -C "$R" --mode copy cx
expect_grep "... naming it" "groups/cx/.claude-fragments': not there yet" "$T/err"
rm "$H/.claude-fragments"
mv "$T/agents.bak" "$H/AGENTS.md"
mv "$T/frag.bak" "$H/.claude-fragments"
expect_ok "restored, it mounts again" $CLAWMD mounts -C "$R" --mode copy cx

# Refusals.
expect_fail 2 "no GROUP: exit 2" $CLAWMD mounts -C "$R"
expect_fail 2 "two groups: exit 2" $CLAWMD mounts -C "$R" main cx
expect_fail 2 "an unknown format: exit 2" $CLAWMD mounts -C "$R" --format yaml main
expect_grep "... naming the formats" "unknown format 'yaml' \\(docker, json, kubernetes\\)" "$T/err"
expect_fail 3 "an invalid group name: exit 3" $CLAWMD mounts -C "$R" ../x
expect_fail 4 "a missing group: exit 4" $CLAWMD mounts -C "$R" nope
expect_fail 4 "... also as JSON" $CLAWMD mounts -C "$R" --json nope
cp "$T/out" "$T/json1"
expect_ok "... whose error is a JSON document" perl -MJSON::PP -e '
	local $/; decode_json(<STDIN>)->{error}{status} == 4 or die' <"$T/json1"
ln -s main "$R/groups/link"
expect_fail 4 "a symlinked group: exit 4" $CLAWMD mounts -C "$R" link
printf '{"skills": ["../x"]}\n' >"$R/groups/cx/container.json"
expect_fail 3 "an invalid container.json: exit 3" $CLAWMD mounts -C "$R" cx
expect_grep "... naming the key" 'container.json: skills\[0\]' "$T/err"

# A path docker's -v cannot carry: JSON can.
C=$T/a:b
mkdir -p "$C"
cp -R "$R/container" "$R/skills" "$C/"
mkdir -p "$C/groups/main"
expect_ok "compose under a root with ':' in its path" $CLAWMD compose -q -C "$C" main
expect_fail 3 "docker: a ':' in a path is exit 3" $CLAWMD mounts -C "$C" main
expect_grep "... naming the path and what to use" "a:b/groups/main': docker's -v cannot carry a ':'.*--format json" "$T/err"
expect_ok "json carries it" $CLAWMD mounts -C "$C" --json main

# Kubernetes: a source outside ROOT has no subPath in the layout volume.
S=$T/elsewhere-skills
cp -R "$R/skills" "$S"
expect_ok "docker: skills outside ROOT" $CLAWMD mounts -C "$R" --mode symlink --skills "$S" main
expect_grep "... mounted from there" "^$S:/app/skills:ro\$" "$T/out"
expect_fail 3 "kubernetes: a source outside ROOT is exit 3" \
	$CLAWMD mounts -C "$R" --mode symlink --skills "$S" --format kubernetes main
expect_grep "... naming it" "elsewhere-skills': outside ROOT" "$T/err"

# A source missing on the host is left out (an engine would create it).
rm -r "$N/container/skills"
expect_ok "mounts without the skills directory" $CLAWMD mounts -C "$N" --preset nanoclaw --mode copy main
check "... no /app/skills" sh -c "! grep -q ':/app/skills' '$T/out'"

expect_ok "--help" $CLAWMD mounts --help
expect_grep "... describes the formats" '^  kubernetes ' "$T/out"
expect_ok "clawmd help mounts" $CLAWMD help mounts
done_testing
