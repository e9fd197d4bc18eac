# Cycles, a file imported twice, a walked file imported by another.
mkdir -p .git ws
printf 'A\n@./b.md\n' >ws/a.md
printf 'B\n@./a.md\n' >ws/b.md
printf 'top\n@./a.md\n@./a.md\n@./CLAUDE.md\n@./AGENTS.md\n@./CLAUDE.local.md\n' >ws/CLAUDE.md
printf 'agents\n@./b.md\n' >ws/AGENTS.md
printf 'local\n@./a.md\n' >ws/CLAUDE.local.md
