mkdir -p .git a/b/c/d home/.codex
: >AGENTS.md
printf '  \n\t\n' >a/AGENTS.md
: >a/b/AGENTS.override.md
echo "B AGENTS.md, hidden by the empty override." >a/b/AGENTS.md
printf '\302\240\n' >a/b/c/AGENTS.md
printf '\n\n  D AGENTS.md, untrimmed.  \n\n' >a/b/c/d/AGENTS.md
printf ' \n' >home/.codex/AGENTS.override.md
echo "Global AGENTS.md (the override is blank)." >home/.codex/AGENTS.md
