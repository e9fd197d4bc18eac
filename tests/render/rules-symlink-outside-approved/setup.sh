set -e
mkdir -p p/.claude/rules
ln -s ../../../shared/r.md p/.claude/rules/link.md
