set -e
ln -s ../home/.claude/CLAUDE.md p/CLAUDE.md
