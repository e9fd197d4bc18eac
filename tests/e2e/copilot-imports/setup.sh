git init -q .
mkdir -p sub imp up .github/instructions .claude
echo "Outside the git root: never imported." >up/outside.md
echo "Repository copilot instructions." >.github/copilot-instructions.md
printf -- '---\napplyTo: "**"\n---\nFor every file.\n' >.github/instructions/all.instructions.md
printf 'The root AGENTS.md.\n@./imp/a.md\nAfter the first import.\n@imp/b.md\nAbsolute, not followed:\n@%s/imp/b.md\nOut of the root, not followed:\n@../outside.md\n```\n@./imp/b.md\n```\nThe end.\n' "$CT_ROOT" >AGENTS.md
printf '\n  An indented line after a blank one.\n@./nested.md\n\n\n' >imp/a.md
echo "Nested two deep." >imp/nested.md
printf 'b.md, no final newline.' >imp/b.md
printf 'The root CLAUDE.md, its import on the last line.\n@./imp/b.md' >CLAUDE.md
printf 'The root GEMINI.md: its import stays a line.\n@./imp/b.md\n' >GEMINI.md
echo "CLAUDE.local.md: Copilot never reads it." >CLAUDE.local.md
echo "The root's .claude/CLAUDE.md: not read in the root." >.claude/CLAUDE.md
printf 'The sub AGENTS.md.\n@../imp/b.md\n' >sub/AGENTS.md
