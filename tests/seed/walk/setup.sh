# Files per level, the walk's end, the global tiers.
mkdir -p .git ws/.claude home/.config/caliban home/.claude
printf 'root CLAUDE.md\n' >CLAUDE.md
printf 'root AGENTS.md\n' >AGENTS.md
printf 'ws .caliban.md\n' >ws/.caliban.md
printf 'ws CLAUDE.md\n' >ws/CLAUDE.md
printf 'ws AGENTS.md\n' >ws/AGENTS.md
printf 'ws CLAUDE.local.md\n' >ws/CLAUDE.local.md
printf 'ws .claude/CLAUDE.md\n' >ws/.claude/CLAUDE.md
printf 'caliban global\n@./g.md\n' >home/.config/caliban/CLAUDE.md
printf 'g\n' >home/.config/caliban/g.md
printf 'claude user\n@./u.md\n' >home/.claude/CLAUDE.md
printf 'u\n' >home/.claude/u.md
