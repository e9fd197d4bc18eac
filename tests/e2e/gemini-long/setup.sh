mkdir w
long=$(awk 'BEGIN { for (i = 0; i < 2100; i++) printf "a/"; }')
name=$(awk 'BEGIN { for (i = 0; i < 300; i++) printf "b"; }')
printf 'LONG\n@./%sx.md\n@./%s.md\n@../%sx.md\n' "$long" "$name" "$long" >w/GEMINI.md
