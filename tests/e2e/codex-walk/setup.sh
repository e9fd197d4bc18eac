mkdir -p .git sub/mid/deep home/.codex
echo "Root AGENTS.md." >AGENTS.md
echo "Sub AGENTS.md." >sub/AGENTS.md
echo "Deep AGENTS.override.md." >sub/mid/deep/AGENTS.override.md
echo "Deep AGENTS.md, shadowed by the override." >sub/mid/deep/AGENTS.md
printf '\n  Global AGENTS.md, padded.  \n\n' >home/.codex/AGENTS.md
