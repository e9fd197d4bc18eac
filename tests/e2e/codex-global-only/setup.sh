mkdir -p home/.codex
echo "Global AGENTS.override.md, before AGENTS.md." >home/.codex/AGENTS.override.md
echo "Global AGENTS.md, not read." >home/.codex/AGENTS.md
