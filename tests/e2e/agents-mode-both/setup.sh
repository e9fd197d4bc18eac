mkdir -p proj/sub proj/.claude home/.claude
git init -q proj
echo '{"pluginConfigs":{"cc-plugin-agents-md@builtin":{"options":{"instructionFiles":"claude-md-and-agents-md"}}}}' >home/.claude/settings.json
echo "Project CLAUDE.md." >proj/CLAUDE.md
echo "Project CLAUDE.local.md." >proj/CLAUDE.local.md
echo "Project AGENTS.md." >proj/AGENTS.md
printf '\nProject CLAUDE.md.\n\n' >proj/.claude/AGENTS.md
echo "Sub CLAUDE.md." >proj/sub/CLAUDE.md
echo "Sub AGENTS.md." >proj/sub/AGENTS.md
