git init -q .
mkdir -p sub/deeper up home/.pi/agent imp
echo "pi's global AGENTS.md." >home/.pi/agent/AGENTS.md
echo "Above the git root: /e2e/AGENTS.md." >up/e2e.md
echo "The root's AGENTS.override.md wins in its directory." >AGENTS.override.md
echo "The root's AGENTS.md: never read (the override stands in its place)." >AGENTS.md
printf 'The sub CLAUDE.md, read: no AGENTS file here.\n\n' >sub/CLAUDE.md
echo "AGENTS.local.md: pi never reads it." >sub/AGENTS.local.md
printf 'The deeper AGENTS.md, no final newline.\n@./imp.md' >sub/deeper/AGENTS.md
echo "The deeper CLAUDE.md: never read (AGENTS.md comes first)." >sub/deeper/CLAUDE.md
echo "Imported? No: pi leaves the line as text." >sub/deeper/imp.md
