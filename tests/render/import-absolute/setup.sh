set -e
printf "see @%s/p/abs.md and @/ and @%s/p/./d/../abs.md\n" "$ROOT" "$ROOT" > p/CLAUDE.md
