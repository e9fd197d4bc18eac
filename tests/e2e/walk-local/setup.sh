mkdir -p p/.claude p/chain
echo "Parent CLAUDE.md." >CLAUDE.md
echo "Parent CLAUDE.local.md." >CLAUDE.local.md
printf -- '---\ndescription: frontmatter is removed\n---\n<!-- a comment line -->\nProject CLAUDE.md. @./chain/1.md @./cyc-a.md\n' >p/CLAUDE.md
echo "Project .claude/CLAUDE.md." >p/.claude/CLAUDE.md
echo "Project CLAUDE.local.md." >p/CLAUDE.local.md
for i in 1 2 3 4 5 6; do echo "Chain $i. @./$((i + 1)).md" >"p/chain/$i.md"; done
echo "Chain 7." >p/chain/7.md
echo "Cycle a. @./cyc-b.md" >p/cyc-a.md
echo "Cycle b. @./cyc-a.md @./CLAUDE.md" >p/cyc-b.md
