set -e
printf "C @./n.md @%s/p/frag.md @%s/p/real.md\n" "$ROOT" "$ROOT" > shared/C.md
mkdir -p p/.claude
ln -s ../../shared/C.md p/.claude/CLAUDE.md
ln -s ../shared/f.md p/frag.md
