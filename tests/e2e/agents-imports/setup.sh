mkdir -p proj/docs proj/.claude outside
git init -q proj
cat >proj/AGENTS.md <<'MD'
---
description: frontmatter is removed
---
<!-- a comment line -->
# Agents

See @./docs/style.md and @docs/testing.md.

`@./docs/in-code.md` is code.

@../outside/far.md
MD
echo "Style. @./deep.md" >proj/docs/style.md
echo "Deep, imported by style.md." >proj/docs/deep.md
echo "Testing." >proj/docs/testing.md
echo "In code, never read." >proj/docs/in-code.md
echo "Outside the cwd." >outside/far.md
printf '%s\n' ".claude/AGENTS.md. @../docs/testing.md @../docs/extra.md" >proj/.claude/AGENTS.md
echo "Extra." >proj/docs/extra.md
