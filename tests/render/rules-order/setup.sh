# Rules created out of order, so that readdir(3) order (hash order on ext4,
# newest first on tmpfs) differs from the sorted order.
set -e
mkdir -p p/.claude/rules
for n in q.md Z.md c.md a.md x.md b.md m.md k.md; do
	printf '%s\n' "$n" >p/.claude/rules/$n
done
mkdir p/.claude/rules/d && printf 'd/e\n' >p/.claude/rules/d/e.md
