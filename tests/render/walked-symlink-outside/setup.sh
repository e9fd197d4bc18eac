set -e
mkdir -p p/.claude
ln -s ../../outside/C.md p/.claude/CLAUDE.md
ln -s "$ROOT/outside/real.md" outside/frag.md
