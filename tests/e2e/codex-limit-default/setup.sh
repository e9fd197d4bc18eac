mkdir -p .git sub
i=0
while [ $i -lt 400 ]; do printf 'Root line %04d: forty-nine bytes of filler text.\n' $i; i=$((i + 1)); done | head -c 20000 >AGENTS.md
i=0
while [ $i -lt 400 ]; do printf 'Sub line %04d: fifty bytes of the nested filler..\n' $i; i=$((i + 1)); done | head -c 20000 >sub/AGENTS.md
