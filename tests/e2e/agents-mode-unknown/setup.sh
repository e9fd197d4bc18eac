mkdir -p proj/.claude home/.claude
git init -q proj
echo '{"pluginConfigs":{"cc-plugin-agents-md@builtin":{"options":{"instructionFiles":"agents-md"}}}}' >home/.claude/settings.json
echo '{"pluginConfigs":{"cc-plugin-agents-md@builtin":{"options":{"instructionFiles":"claude-md"}}}}' >proj/.claude/settings.json
echo "Project AGENTS.md." >proj/AGENTS.md
