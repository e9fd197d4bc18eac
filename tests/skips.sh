#!/bin/sh
# tests/skips.sh BUILD... - what a run of the suite skipped, for make check's
# closing line: read from BUILD/tests/log/*.tap (tests/run-test.sh writes
# them) and BUILD/tests/log/fuzz.log (the fuzzers'), it prints one line,
#   "nothing skipped", or
#   "skipped: t60-node whole (no node installed: ...); t19-compose-front
#    1 test in build/san (the sanitizer build's front is dynamic); ..."
# every file that skipped anything, how much, in which builds (when not in
# all), and each of its reasons once, in the order they came.
nbuilds=$#
for b in "$@"; do
	for f in "$b"/tests/log/*.tap; do
		[ -f "$f" ] || continue
		n=${f##*/}
		n=${n%.tap}
		n=${n%.sh}
		n=${n%.t}
		awk -v build="$b" -v name="$n" '
		/^1\.\.0 *# *[Ss][Kk][Ii][Pp]/ { r = $0; sub(/^1\.\.0 *# *[Ss][Kk][Ii][Pp] */, "", r)
			print name "\t" build "\twhole\t" r; next }
		/^ok [0-9]+.*# *[Ss][Kk][Ii][Pp]/ { r = $0; sub(/^[^#]*# *[Ss][Kk][Ii][Pp] */, "", r)
			print name "\t" build "\tone\t" r }' "$f"
	done
	if [ -f "$b/tests/log/fuzz.log" ]; then
		sed -n 's/^\([a-z-]*\): skipped (\(.*\))$/\1\t'"$(printf '%s' "$b" | sed 's/[\/&]/\\&/g')"'\twhole\t\2/p' \
			"$b/tests/log/fuzz.log"
	fi
done | awk -F '\t' -v nbuilds="$nbuilds" '
	{
		k = $1
		if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
		if ($3 == "whole") whole[k] = 1; else cnt[k]++
		bk = k SUBSEP $2
		if (!(bk in inb)) { inb[bk] = 1; nb[k]++; blist[k] = blist[k] (blist[k] == "" ? "" : " and ") $2 }
		rk = k SUBSEP $4
		if (!(rk in rs)) { rs[rk] = 1; reasons[k] = reasons[k] (reasons[k] == "" ? "" : "; ") $4 }
	}
	END {
		if (nk == 0) { print "nothing skipped"; exit }
		out = "skipped: "
		for (i = 1; i <= nk; i++) {
			k = order[i]
			what = whole[k] ? "whole" : cnt[k] == 1 ? "1 test" : cnt[k] " tests"
			if (whole[k] && cnt[k]) what = "whole, and " cnt[k] " tests"
			where = nb[k] < nbuilds ? " in " blist[k] : ""
			out = out (i > 1 ? "; " : "") k " " what where " (" reasons[k] ")"
		}
		print out
	}'
