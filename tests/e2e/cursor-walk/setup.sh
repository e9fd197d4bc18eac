git init -q .
mkdir -p sub/.cursor/rules .cursor/rules .claude sub/.claude up
echo "Above the git root: never sent." >up/e2e.md
echo "The root's .cursorrules." >.cursorrules
echo "The sub .cursorrules: only the workspace root's is sent." >sub/.cursorrules
printf -- '---\nalwaysApply: true\n---\nThe root rule, its frontmatter not sent.\n' >.cursor/rules/r.mdc
echo "A plain .md rule: never sent." >.cursor/rules/plain.md
printf -- '---\ndescription: x\nalwaysApply: true\n---\nThe sub rule.\n' >sub/.cursor/rules/s.mdc
printf 'The root AGENTS.md.\n@./CLAUDE.md stays a line.\n' >AGENTS.md
echo "The root CLAUDE.md." >CLAUDE.md
printf 'The root CLAUDE.local.md, no final newline.' >CLAUDE.local.md
echo "The root .claude/CLAUDE.md." >.claude/CLAUDE.md
echo "The sub AGENTS.md." >sub/AGENTS.md
echo "The sub .claude/CLAUDE.md." >sub/.claude/CLAUDE.md
echo "GEMINI.md: never sent." >sub/GEMINI.md
