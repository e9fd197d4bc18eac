# The user rules come in readdir(3) order (native releases): sub/ and u.md.
blk() { printf 'Contents of %s (%s):\n\n%s\n\n' "$ROOT/$1" "$2" "$3"; }
u="user's private global instructions for all projects"
printf 'Codebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.\n\n'
blk managed/CLAUDE.md "organization-managed policy instructions" M
blk managed/.claude/rules/m.md "organization-managed policy instructions" MR
blk home/.claude/CLAUDE.md "$u" U
for n in $(readdir home/.claude/rules); do
	case $n in
	sub) blk home/.claude/rules/sub/v.md "$u" UV ;;
	u.md) blk home/.claude/rules/u.md "$u" UR ;;
	esac
done
blk p/CLAUDE.md "project instructions, checked into the codebase" P
printf 'Contents of %s/p/CLAUDE.local.md (user'"'"'s private project instructions, not checked in):\n\nL' "$ROOT"
