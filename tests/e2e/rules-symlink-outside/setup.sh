mkdir -p p/.claude/rules outside/rdir
echo "# Project p" >p/CLAUDE.md
echo "Rule inside." >p/.claude/rules/inside.md
echo "Rule outside, relative link." >outside/r.md
echo "Rule outside, absolute link." >outside/abs.md
echo "Rule in a linked directory outside." >outside/rdir/x.md
ln -s ../../../outside/r.md p/.claude/rules/out.md
ln -s "$CT_ROOT/outside/abs.md" p/.claude/rules/abs.md
ln -s ../../../outside/rdir p/.claude/rules/outdir
