set -e
mkdir -p p/.claude/rules
ln -s ../../t/y.txt p/.claude/rules/a.md
ln -s ../../t/z.png p/.claude/rules/b.md
