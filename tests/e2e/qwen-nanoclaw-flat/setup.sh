. "$CLAWMD_SRC/tests/e2e/qwen-nanoclaw-copy/setup.sh"
printf '{ "document": "flat" }\n' >clawmd.json
