. "$CLAWMD_SRC/tests/e2e/copilot-nanoclaw-copy/setup.sh"
printf '{ "document": "flat" }\n' >clawmd.json
