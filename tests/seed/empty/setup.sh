# Empty files are sent, as empty blocks.
mkdir -p .git ws
: >ws/CLAUDE.md
: >ws/CLAUDE.local.md
: >ws/AGENTS.md
: >ws/e.md
printf '@./e.md\n' >ws/.caliban.md
