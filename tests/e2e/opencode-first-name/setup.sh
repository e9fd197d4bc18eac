mkdir -p sub
echo "The sub AGENTS.md." >sub/AGENTS.md
echo "The sub AGENTS.local.md." >sub/AGENTS.local.md
echo "The root CLAUDE.md." >CLAUDE.md
echo "The root CLAUDE.local.md." >CLAUDE.local.md
echo "The root CONTEXT.md." >CONTEXT.md
