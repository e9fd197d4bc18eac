# A walked file that is a symlink: caliban names it by the link and takes
# its imports beside the link; chimera names the target, imports beside it.
mkdir -p ws/.git shared
printf 'shared entry\n@./near.md\n' >shared/entry.md
printf 'beside the target\n' >shared/near.md
printf 'beside the link\n' >ws/near.md
ln -s ../shared/entry.md ws/CLAUDE.md
