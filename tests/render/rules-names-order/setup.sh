set -e
ln -s ../../srules p/.claude/rules/s
ln -s . p/.claude/rules/loop
