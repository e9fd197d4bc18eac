mkdir -p container/skills/agent-browser container/skills/status container/agent-runner/src/mcp-tools groups/main
printf '# nanoclaw shared base\n\nYou are a nanoclaw agent.\n' >container/CLAUDE.md
printf -- '---\nname: agent-browser\n---\nBrowse.\n' >container/skills/agent-browser/SKILL.md
printf 'Browser skill: use agent-browser for web pages.\n' >container/skills/agent-browser/instructions.md
printf -- '---\nname: status\n---\nStatus.\n' >container/skills/status/SKILL.md
printf 'Status skill: report progress briefly.\n' >container/skills/status/instructions.md
printf 'export const x = 1;\n' >container/agent-runner/src/index.ts
printf 'export const cli = 1;\n' >container/agent-runner/src/mcp-tools/cli.ts
printf 'CLI module: run shell commands through the cli tool.\n' >container/agent-runner/src/mcp-tools/cli.instructions.md
printf 'Scheduling module: schedule_task for later work.\n' >container/agent-runner/src/mcp-tools/scheduling.instructions.md
printf '{ "skills": "all" }\n' >groups/main/container.json
printf 'Per-group memory: the owner is Ada.\n' >groups/main/CLAUDE.local.md
