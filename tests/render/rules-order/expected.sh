# Up to 2.1.112 rules are listed sorted; the native releases (2.1.113 and
# later) list them in the order the kernel's readdir returns them.
case $CLAUDE_VERSION in
2.1.88 | 2.1.112) order=sort ;;
*)
	order=cat
	[ "$(readdir p/.claude/rules)" != "$(readdir p/.claude/rules | sort)" ] ||
		echo "note: this filesystem lists the rules sorted; the order is not tested" >&2
	;;
esac
for n in $(readdir p/.claude/rules | $order); do
	[ "$n" = d ] && n=d/e.md
	printf 'Project\t%s/p/.claude/rules/%s\t-\n' "$ROOT" "$n"
done
