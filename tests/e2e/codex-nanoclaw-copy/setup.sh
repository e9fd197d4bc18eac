# nanoclaw-copy's tree, the group switched to Codex
sh -e "$CLAWMD_SRC/tests/e2e/nanoclaw-copy/setup.sh"
printf '{ "skills": "all", "provider": "codex" }\n' >groups/main/container.json
