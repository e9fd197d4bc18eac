mkdir -p .git home/.codex
printf 'Line one\r\nbad \377 byte, cut \342\202 sequence, surrogate \355\240\200.\r\n' >AGENTS.md
printf '\302\240\342\200\203Global\377text\342\200\203\n\302\240' >home/.codex/AGENTS.md
