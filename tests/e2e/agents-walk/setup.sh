mkdir -p top/.claude top/proj/.claude top/proj/sub/.claude
git init -q top/proj
for d in top top/proj top/proj/sub; do
	echo "AGENTS.md of $d." >$d/AGENTS.md
	echo ".claude/AGENTS.md of $d." >$d/.claude/AGENTS.md
	echo "AGENTS.local.md of $d, never read." >$d/AGENTS.local.md
done
rm top/proj/.claude/AGENTS.md
