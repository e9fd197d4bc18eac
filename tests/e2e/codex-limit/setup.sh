mkdir -p .git a/b/c/d home/.codex
echo "Root AGENTS.md: thirty bytes." >AGENTS.md
printf 'A AGENTS.md: 24 bytes..\n' >a/AGENTS.md
printf '      then text past the cut\n' >a/b/AGENTS.md
printf 'C: na\303\257ve \303\251t\303\251 text\n' >a/b/c/AGENTS.md
echo "D AGENTS.md, past the budget." >a/b/c/d/AGENTS.md
printf 'Global AGENTS.md, long enough to pass sixty bytes on its own: not counted.\n' >home/.codex/AGENTS.md
