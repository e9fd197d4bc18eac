mkdir -p .git home/.codex
i=0
while [ $i -lt 800 ]; do printf 'Global line %04d: fifty bytes of global filler...\n' $i; i=$((i + 1)); done >home/.codex/AGENTS.md
echo "Project AGENTS.md." >AGENTS.md
