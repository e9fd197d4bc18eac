# Native releases list rules in the order the kernel's readdir returns them.
got=$(readdir p/.claude/rules | tr '\n' ' ')
[ "$got" != "$(readdir p/.claude/rules | sort | tr '\n' ' ')" ] ||
	echo "note: this filesystem lists the rules sorted; the order is not tested" >&2
for n in $(readdir p/.claude/rules); do
	[ "$n" = d ] && n=d/e.md
	printf 'Project\t%s/p/.claude/rules/%s\t-\n' "$ROOT" "$n"
done
