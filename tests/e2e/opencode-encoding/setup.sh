mkdir -p sub
printf "\357\273\277A BOM line.\r\nA CR LF line.\r\nBad \377\376 bytes \303 end.\n" >sub/AGENTS.md
printf "A tab\there, a NUL\000after.\n" >AGENTS.md
