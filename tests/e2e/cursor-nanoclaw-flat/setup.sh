. "$CLAWMD_SRC/tests/e2e/cursor-nanoclaw-copy/setup.sh"
printf '{ "document": "flat" }\n' >clawmd.json
