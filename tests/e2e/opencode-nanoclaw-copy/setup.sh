. "$CLAWMD_SRC/tests/e2e/nanoclaw-copy/setup.sh"
printf '{ "skills": "all", "provider": "opencode" }\n' >groups/main/container.json
