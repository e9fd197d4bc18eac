. "$CLAWMD_SRC/tests/e2e/demo-copy/setup.sh"
# nanoclaw's field: the group runs OpenCode
sed -i '1s/^{$/{\n  "provider": "opencode",/' groups/assistant/container.json
