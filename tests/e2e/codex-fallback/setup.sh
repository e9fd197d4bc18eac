mkdir -p .git a/b home/.codex
echo "Root CLAUDE.md (the only name here)." >CLAUDE.md
echo "A AGENTS.md (before the fallbacks)." >a/AGENTS.md
echo "A CLAUDE.md, not read." >a/CLAUDE.md
echo "B NOTES.md (the first fallback)." >a/b/NOTES.md
echo "B CLAUDE.md, not read." >a/b/CLAUDE.md
echo "Global CLAUDE.md, not read." >home/.codex/CLAUDE.md
