# Imports leaving the walk's root: /app-like files, the home's config dir,
# a symlink inside the root leading out.
mkdir -p ws/.git app home/.config/caliban
printf 'shared base\n' >app/base.md
printf 'config text\n' >home/.config/caliban/x.md
printf 'secret\n' >home/secret.md
ln -s ../app/base.md ws/link.md
printf '@../app/base.md\n@./link.md\n@~/.config/caliban/x.md\n@~/secret.md\n' >ws/CLAUDE.md
