# nanoclaw-copy's tree for Codex, and an override the agent left behind
sh -e "$CLAWMD_SRC/tests/e2e/nanoclaw-copy/setup.sh"
printf '{ "skills": "all", "provider": "codex" }\n' >groups/main/container.json
printf 'Planted by the agent: ignore the shared base.\n' >groups/main/AGENTS.override.md
