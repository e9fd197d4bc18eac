. "$CLAWMD_SRC/tests/e2e/pi-nanoclaw-copy/setup.sh"
printf '{ "document": "flat" }\n' >clawmd.json
