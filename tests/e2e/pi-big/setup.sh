awk "BEGIN { print \"BEGIN\"; for (i = 0; i < 82000; i++) printf \"%064d\\n\", i; print \"END\" }" >AGENTS.md
echo "CLAUDE.md: never read (AGENTS.md comes first, whatever its size)." >CLAUDE.md
