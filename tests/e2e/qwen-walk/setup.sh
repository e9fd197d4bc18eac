mkdir -p repo/sub repo/imp repo/.qwen/rules up home/.qwen
git init -q repo
echo "The global ~/.qwen/QWEN.md." >home/.qwen/QWEN.md
echo "/e2e/QWEN.md: above the directory above the git root, not read." >up/e2e.md
echo "QWEN.md above the git root: read." >QWEN.md
echo "AGENTS.md above the git root: read." >AGENTS.md
echo "CLAUDE.md: Qwen never reads it." >CLAUDE.md
printf 'The root QWEN.md.\n@./imp/a.md\nAfter the import.\nOut of the root, not followed:\n@../QWEN.md\nMid-line: see @./imp/b.md here, twice: @imp/b.md.\nMissing: @./imp/none.md stays.\nIn code: `@./imp/b.md` stays.\nA cycle: @./imp/c.md\n' >repo/QWEN.md
printf 'c.md imports d.md: @./d.md\n' >repo/imp/c.md
printf 'd.md imports c.md again: @./c.md\n' >repo/imp/d.md
printf 'a.md, then a nested import.\n@./b.md\n' >repo/imp/a.md
printf 'b.md, no final newline.' >repo/imp/b.md
printf '\n\nThe root AGENTS.md, blank lines around.\n\n\n' >repo/AGENTS.md
echo "Root-local QWEN.local.md." >repo/.qwen/QWEN.local.md
echo "Rule z." >repo/.qwen/rules/z.md
echo "Rule a." >repo/.qwen/rules/a.md
echo "The sub AGENTS.md." >repo/sub/AGENTS.md
echo "A sub QWEN.local.md: not read." >repo/sub/QWEN.local.md
