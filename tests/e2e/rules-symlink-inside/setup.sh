mkdir -p p/.claude/rules p/shared p/shareddir
echo "# Project p" >p/CLAUDE.md
echo "Plain rule." >p/.claude/rules/plain.md
echo "Shared rule, linked." >p/shared/r.md
echo "Rule in a linked directory." >p/shareddir/d.md
ln -s ../../shared/r.md p/.claude/rules/link.md
ln -s ../../shareddir p/.claude/rules/linkdir
ln -s plain.md p/.claude/rules/again.md
