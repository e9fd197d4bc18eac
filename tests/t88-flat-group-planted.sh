#!/bin/sh
# The agent's group of a flat document, attacked at each name that
# compose, status, check and render read there (the entry compose writes,
# found by clawmd_runtime_entry_name; the persona; the memory;
# container.json): a FIFO, a symlink loop, a symlink out of the group, a
# sparse 4 GiB file and a symlink to a directory outside.  Every command
# answers in time and does not crash, nothing outside the group is read
# into any output or written, the entry compose writes is then a regular
# file of the composed text, and a planted entry is moved aside, not lost.
# Each held when written (the flat paths as of 0f11c45).
. "$CLAWMD_TESTS/lib.sh"

O=$T/outside
mkdir -p "$O/dir"
printf 'OUTSIDE-SECRET\n' >"$O/file"
printf 'OUTSIDE-SECRET\n' >"$O/dir/CLAUDE.md"
cp "$O/file" "$T/file.orig"
hung='' leaked='' wrote='' bad_entry='' lost=''
for prov in claude codex; do
	entry=CLAUDE.md
	[ $prov = codex ] && entry=AGENTS.md
	for name in "$entry" instructions.prepend.md CLAUDE.local.md container.json; do
		for kind in fifo loop outlink sparse dirlink; do
			R=$T/root
			rm -rf "$R"
			make_flat_root "$R" '# Base\n\nRules.\n\n{{provider-memory-note}}\n'
			printf '{"provider": "%s"}\n' $prov >"$R/groups/main/container.json"
			G=$R/groups/main
			"$CLAWMD" compose -q -C "$R" main >/dev/null 2>&1
			rm -f "$G/$name"
			case $kind in
			fifo) mkfifo "$G/$name" ;;
			loop) ln -s "$name" "$G/$name" ;;
			outlink) ln -s "$O/file" "$G/$name" ;;
			sparse) truncate -s 4G "$G/$name" ;;
			dirlink) ln -s "$O/dir" "$G/$name" ;;
			esac
			at="$prov $name $kind"
			for cmd in "status main" check "render --group main" "compose main" "status main" "check"; do
				# shellcheck disable=SC2086
				timeout 20 "$CLAWMD" $cmd -C "$R" >"$T/out" 2>"$T/err"
				st=$?
				[ $st = 124 ] || [ $st -ge 128 ] && hung="$hung; $at: $cmd exit $st"
				grep -q OUTSIDE-SECRET "$T/out" "$T/err" && leaked="$leaked; $at: $cmd"
				cmp -s "$O/file" "$T/file.orig" && [ "$(ls "$O/dir")" = CLAUDE.md ] ||
					{ wrote="$wrote; $at: $cmd"; cp "$T/file.orig" "$O/file"; }
			done
			# a config that cannot be read composes every default: Claude's
			want=$entry
			[ "$name" = container.json ] && want=CLAUDE.md
			{ [ -f "$G/$want" ] && [ ! -L "$G/$want" ] && grep -q '^Rules\.$' "$G/$want" &&
				! grep -q OUTSIDE-SECRET "$G/$want"; } || bad_entry="$bad_entry; $at"
			if [ "$name" = "$entry" ] && ! ls "$G" | grep -q "^$entry\.clawmd-preserved-"; then
				lost="$lost; $at"
			fi
		done
	done
done
expect_eq "every command answered in time, none crashed" "$hung" ""
expect_eq "nothing outside the group in any output" "$leaked" ""
expect_eq "nothing outside the group written" "$wrote" ""
expect_eq "the entry: a regular file of the composed text, nothing of outside" "$bad_entry" ""
expect_eq "a planted entry moved aside, not lost" "$lost" ""
done_testing
