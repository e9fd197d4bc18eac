mkdir -p .git home/.codex
echo "Root AGENTS.md, not read." >AGENTS.md
echo "Global AGENTS.md." >home/.codex/AGENTS.md
