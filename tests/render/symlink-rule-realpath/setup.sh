set -e
ln -s ../../rules-src/r.md p/.claude/rules/link.md
