#!/bin/sh
# The agent's flat group, as t88 attacks it, with what t88 leaves out: a
# character device (/dev/zero's numbers), a block device (a loop
# device's), a socket, and AGENTS.md planted next to Claude's CLAUDE.md;
# and nanoclaw's own path, the Node adapter's composeGroupProjectDoc with
# the config the host keeps, after each.  Every command answers in time
# and does not crash, nothing outside the group is read into an output or
# written, and the entry comes out a regular file of the composed text.
# The devices need mknod (root); without it those kinds are left out.
. "$CLAWMD_TESTS/lib.sh"

PKG=${CLAWMD_BUILD:-}/node/package
node_ok=
if command -v node >/dev/null 2>&1 && [ -d "$PKG" ]; then
	node_ok=1
	pre=
	if nm -D "$PKG"/prebuilds/*/*.node 2>/dev/null | grep -q __asan_init; then
		cc=${CC:-cc}
		pre=$($cc -print-file-name=libasan.so)
		nm -D "$PKG"/prebuilds/*/*.node | grep -q __ubsan && pre="$pre $($cc -print-file-name=libubsan.so)"
	fi
fi
kinds='sock fifo loop outlink sparse'
mknod "$T/probe" c 1 5 2>/dev/null && kinds="chrdev blkdev $kinds"
rm -f "$T/probe"

O=$T/outside
mkdir -p "$O"
printf 'OUTSIDE-SECRET\n' >"$O/file"
cp "$O/file" "$T/file.orig"
hung='' leaked='' wrote='' bad_entry='' node_bad=''
for prov in claude codex; do
	entry=CLAUDE.md
	[ $prov = codex ] && entry=AGENTS.md
	for name in container.json CLAUDE.md AGENTS.md instructions.prepend.md; do
		for kind in $kinds; do
			R=$T/root
			rm -rf "$R"
			make_flat_root "$R" '# Base\n\nRules.\n\n{{provider-memory-note}}\n'
			printf '{"provider": "%s"}\n' $prov >"$R/groups/main/container.json"
			G=$R/groups/main
			"$CLAWMD" compose -q -C "$R" main >/dev/null 2>&1
			rm -f "$G/$name"
			case $kind in
			chrdev) mknod "$G/$name" c 1 5 ;;
			blkdev) mknod "$G/$name" b 7 0 ;;
			sock) python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$G/$name" ;;
			fifo) mkfifo "$G/$name" ;;
			loop) ln -s "$name" "$G/$name" ;;
			outlink) ln -s "$O/file" "$G/$name" ;;
			sparse) truncate -s 4G "$G/$name" ;;
			esac
			at="$prov $name $kind"
			for cmd in "status main" check "render --group main" "compose main"; do
				# shellcheck disable=SC2086
				timeout 20 "$CLAWMD" $cmd -C "$R" >"$T/out" 2>"$T/err"
				st=$?
				{ [ $st = 124 ] || [ $st -ge 128 ]; } && hung="$hung; $at: $cmd exit $st"
				grep -q OUTSIDE-SECRET "$T/out" "$T/err" && leaked="$leaked; $at: $cmd"
				cmp -s "$O/file" "$T/file.orig" || { wrote="$wrote; $at: $cmd"; cp "$T/file.orig" "$O/file"; }
			done
			# a config that cannot be read composes every default: Claude's
			want=$entry
			[ "$name" = container.json ] && want=CLAUDE.md
			{ [ -f "$G/$want" ] && [ ! -L "$G/$want" ] && grep -q '^Rules\.$' "$G/$want" &&
				! grep -q OUTSIDE-SECRET "$G/$want"; } || bad_entry="$bad_entry; $at: $want"
			[ -n "$node_ok" ] || continue
			# the host's config, as nanoclaw keeps it: the entry is the provider's
			# (node under the hang guard, not a 20 s limit: a sanitized node
			# start took longer than that on a loaded machine, issue 41)
			(cd "$R" && LD_PRELOAD=$pre ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 $HANG_GUARD node -e '
				const [pkg, dir, prov, file] = process.argv.slice(1);
				const nc = require(pkg + "/nanoclaw.js");
				nc.composeGroupProjectDoc({ folder: "main", name: "Main" }, dir, { fileName: file },
					{ provider: prov }, { log: { warn() {}, error() {} } })
					.then((r) => process.stdout.write(r.file + "\n"));' "$PKG" "$G" $prov $entry) >"$T/out" 2>"$T/err"
			st=$?
			[ $st = 0 ] && [ "$(cat "$T/out")" = $entry ] || node_bad="$node_bad; $at: exit $st $(head -c 200 "$T/err")"
			grep -q OUTSIDE-SECRET "$T/out" "$T/err" && leaked="$leaked; $at: node"
			cmp -s "$O/file" "$T/file.orig" || { wrote="$wrote; $at: node"; cp "$T/file.orig" "$O/file"; }
			{ [ -f "$G/$entry" ] && [ ! -L "$G/$entry" ] && grep -q '^Rules\.$' "$G/$entry" &&
				! grep -q OUTSIDE-SECRET "$G/$entry"; } || bad_entry="$bad_entry; $at: node $entry"
		done
	done
done
expect_eq "every command answered in time, none crashed" "$hung" ""
expect_eq "nothing outside the group in any output" "$leaked" ""
expect_eq "nothing outside the group written" "$wrote" ""
expect_eq "the entry: a regular file of the composed text, nothing of outside" "$bad_entry" ""
expect_eq "the Node adapter with the host's config composes the provider's entry" "$node_bad" ""
done_testing
