#!/bin/sh
# What leaves clawmd is safe whatever bytes the agent's names and files hold
# (DESIGN §8, README "JSON"): every JSON and SARIF document is strict,
# well-formed UTF-8 JSON, the exact bytes recoverable ("K_base64" siblings,
# SARIF URIs percent-encoded); every text output, diffs included, escapes
# control bytes as check does.
. "$CLAWMD_TESTS/lib.sh"

FF=$(printf '\377\376')
R=$T/root
make_root "$R"
make_skill "$R" alpha
printf 'Use alpha \377\376 well.\n' >"$R/skills/alpha/instructions.md"
mkdir -p "$R/groups/main"
expect_ok "compose a group whose fragment holds invalid UTF-8" "$CLAWMD" compose -q -C "$R" main
# A rule named with the bytes ff fe, importing a missing file, with
# frontmatter that does not parse; an edited fragment source; notes with an
# overlong form.
mkdir -p "$R/groups/main/.claude/rules"
printf -- '---\npaths: ["x\377/**"]\n---\n@./missing.md\n' >"$R/groups/main/.claude/rules/$FF.md"
printf -- '---\npaths: ["*.md"]\n---\nWhen editing \377 Markdown.\0 After a NUL.\n' >"$R/groups/main/.claude/rules/m$FF.md"
printf 'notes \300\257\n' >"$R/groups/main/CLAUDE.local.md"
printf 'Use alpha \376\377 changed.\n' >"$R/skills/alpha/instructions.md"

# py FILE CODE: CODE runs with d, the parsed document, and b64/unq.
py() {
	python3 -c 'import json, sys, base64, urllib.parse
d = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))
b64 = base64.b64decode
unq = urllib.parse.unquote_to_bytes
def keys(v):
    if isinstance(v, dict):
        for k, x in v.items(): yield k; yield from keys(x)
    elif isinstance(v, list):
        for x in v: yield from keys(x)
'"$2" "$1"
}

"$CLAWMD" check -C "$R" --json main >"$T/check.json" 2>/dev/null
check "check --json is strict UTF-8 JSON" json_strict "$T/check.json"
check "check --json: the file as U+FFFD, its exact bytes in file_base64" py "$T/check.json" '
f = [x for x in d["findings"] if x.get("file_base64")]
assert f and all(b64(x["file_base64"]) == b"groups/main/.claude/rules/\xff\xfe.md" for x in f), f
assert all(x["file"] == "groups/main/.claude/rules/\ufffd\ufffd.md" for x in f), f
assert not any("file_base64" in x for x in d["findings"] if "\ufffd" not in x["file"])'

"$CLAWMD" check -C "$R" --format sarif main >"$T/check.sarif" 2>/dev/null
check "check --format sarif is strict UTF-8 JSON" json_strict "$T/check.sarif"
check "SARIF: the artifact URI is the exact name, percent-encoded; no extra members" \
	py "$T/check.sarif" '
uris = [l["physicalLocation"]["artifactLocation"]["uri"] for r in d["runs"][0]["results"] for l in r["locations"]]
assert b"groups/main/.claude/rules/\xff\xfe.md" in [unq(u) for u in uris], uris
assert "groups/main/.claude/rules/%FF%FE.md" in uris, uris
assert not [k for k in keys(d) if k.endswith("_base64")]'

"$CLAWMD" render -C "$R" --group main --format json >"$T/render.json" 2>/dev/null
check "render --group --format json is strict UTF-8 JSON" json_strict "$T/render.json"
check "render: the importing rule's from_base64 is its exact container path" py "$T/render.json" '
p = [b64(i["from_base64"]) for i in d["imports"] if "from_base64" in i]
assert p == [b"/workspace/agent/.claude/rules/\xff\xfe.md"], p
assert "/workspace/agent/.claude/rules/\ufffd\ufffd.md" in [i["from"] for i in d["imports"]]'

"$CLAWMD" render -C "$R" --group main --format json --target /workspace/agent/x.md \
	>"$T/target.json" 2>/dev/null
check "render --target --format json is strict UTF-8 JSON" json_strict "$T/target.json"
check "render --target: the conditional rule's path and text, exact in *_base64" \
	py "$T/target.json" '
a = d["attachments"]
assert [b64(x["path_base64"]) for x in a] == [b"/workspace/agent/.claude/rules/m\xff\xfe.md"], a
assert b64(a[0]["text_base64"]).startswith(b"Contents of /workspace/agent/.claude/rules/m\xff\xfe.md:"), a
assert "When editing \ufffd Markdown.\0 After a NUL." in a[0]["text"], a
assert b64(a[0]["text_base64"]).endswith("When editing \ufffd Markdown.\0 After a NUL.\n".encode()), a'

"$CLAWMD" compose -C "$R" --dry-run --json main >"$T/compose.json" 2>/dev/null
check "compose --dry-run --json is strict UTF-8 JSON" json_strict "$T/compose.json"
check "compose --json: the diff's exact bytes in diff_base64" py "$T/compose.json" '
c = [x for x in d["groups"][0]["changes"] if x["path"].endswith("skill-alpha.md")][0]
assert b"-Use alpha \xff\xfe well.\n+Use alpha \xfe\xff changed.\n" in b64(c["diff_base64"]), c
assert "+Use alpha \ufffd\ufffd changed." in c["diff"], c'

"$CLAWMD" status -C "$R" --json >"$T/status.json" 2>/dev/null
check "status --json is strict UTF-8 JSON" json_strict "$T/status.json"

# migrate: a directory under groups/ named with ff and ESC is skipped, and
# said so, by name.
M=$T/legacy
make_root "$M"
mkdir -p "$M/groups/global" "$M/groups/a" "$M/groups/b$(printf '\377\033')"
echo global >"$M/groups/global/CLAUDE.md"
echo mine >"$M/groups/a/CLAUDE.md"
ln -s ../global/CLAUDE.md "$M/groups/a/.claude-global.md"
"$CLAWMD" migrate -C "$M" --dry-run --json >"$T/migrate.json" 2>/dev/null
check "migrate --json is strict UTF-8 JSON" json_strict "$T/migrate.json"
check "migrate --json: the skipped name exact in path_base64" py "$T/migrate.json" '
assert b"groups/b\xff\x1b" in [b64(a["path_base64"]) for a in d["actions"] if "path_base64" in a], d'

# ---- text: control bytes escaped the same way everywhere -------------------

# no_controls FILE: no byte below 0x20 but the newline, no DEL, no C1
# control (U+0080..U+009F, CSI is U+009B), no invalid UTF-8.
no_controls() {
	python3 -c 'import sys, re
s = open(sys.argv[1], "rb").read().decode("utf-8")
assert not re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f]", s), repr(s)' "$1"
}

printf '{"mcpServers": {"evil": {"instructions": "hi \\u001b]0;pwned\\u0007 \\u001b[2J bell\\u0007 cr\\r back \\u009b31m"}}}\n' \
	>"$R/groups/main/container.json"
expect_ok "compose --dry-run with hostile MCP instructions" "$CLAWMD" compose -C "$R" --dry-run main
check "compose --dry-run: no raw control byte, no invalid UTF-8" no_controls "$T/out"
expect_grep "the instructions' diff line, escaped as check escapes" \
	'^\+hi \\x1b\]0;pwned\\x07 \\x1b\[2J bell\\x07 cr\\r back \\xc2\\x9b31m$' "$T/out"
expect_grep "invalid UTF-8 in a fragment's diff, as \\xNN" '^\+Use alpha \\xfe\\xff changed\.$' "$T/out"
expect_grep "the diff's own lines stay as they are" '^@@ -1 \+1 @@$' "$T/out"
expect_fail 1 "compose --check: drift" "$CLAWMD" compose -C "$R" --check main
check "compose --check: no raw control byte" no_controls "$T/out"
expect_grep "compose --check: the escaped line" '^\+hi \\x1b\]0;pwned' "$T/out"

expect_ok "migrate --dry-run, text" "$CLAWMD" migrate -C "$M" --dry-run
check "migrate: no raw control byte" no_controls "$T/out"
expect_grep "migrate: the skipped name escaped" '^skip +groups/b\\xff\\x1b ' "$T/out"

done_testing
