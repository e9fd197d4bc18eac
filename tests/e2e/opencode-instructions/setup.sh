mkdir -p sub notes abs deep/a/b home/.config/opencode
echo "The root AGENTS.md." >AGENTS.md
echo "The global AGENTS.md." >home/.config/opencode/AGENTS.md
echo "The root rules.md." >rules.md
echo "The sub rules.md." >sub/rules.md
# made in reverse, so that the kernel lists them unsorted
echo "Note b." >notes/b.md
echo "Note a." >notes/a.md
echo "A hidden note." >notes/.hidden.md
echo "Abs z." >abs/z2.md
echo "Abs a." >abs/a1.md
echo "Deep top." >deep/top.md
echo "Deep c." >deep/a/b/c.md
echo "The home extra.md." >home/extra.md
cat >opencode.json <<EOF
{"instructions": ["rules.md", "notes/*.md", "$CT_ROOT/abs/*.md", "~/extra.md", "AGENTS.md", "nomatch/*.md", "deep/**/*.md"]}
EOF
