#!/bin/sh
# Compose the group (then, below, break it).
"$CLAWMD" compose -q -C . main
printf '{ "skills": ["alpha", "beta"] }\n' >groups/main/container.json
