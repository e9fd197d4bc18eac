#!/bin/sh
# tests/profile.sh BUILD... - after a run of make test or make check: each
# test's CPU time (user + system, of the test and every process it waited
# for) in each build, from tests/run-test.sh's BUILD/tests/log/NAME.cpu,
# the most expensive first, with each build's total.  CPU time, not wall
# time, because the machine's other load does not change it much.
[ $# -gt 0 ] || { echo "usage: tests/profile.sh BUILD..." >&2; exit 2; }
for b in "$@"; do
	for f in "$b"/tests/log/*.cpu; do
		[ -f "$f" ] || continue
		n=${f##*/}
		printf '%s %s %s\n' "$b" "${n%.cpu}" "$(cat "$f")"
	done
done | perl -e '
	my @builds = @ARGV; my (%cpu, %wall, %sum);
	while (<STDIN>) {
		my ($b, $t, $u, $s, $w) = split;
		$cpu{$t}{$b} = $u + $s; $wall{$t}{$b} = $w; $sum{$b} += $u + $s;
	}
	my $tot = sub { my $x = 0; $x += $_ // 0 for values %{$cpu{$_[0]}}; $x };
	printf "%-28s" . (" %12s" x @builds) . "\n", "test (CPU s, user+sys)", @builds;
	for my $t (sort { $tot->($b) <=> $tot->($a) || $a cmp $b } keys %cpu) {
		printf "%-28s" . (" %12s" x @builds) . "\n", $t,
			map { defined $cpu{$t}{$_} ? sprintf("%.1f", $cpu{$t}{$_}) : "-" } @builds;
	}
	printf "%-28s" . (" %12.1f" x @builds) . "\n", "total", map { $sum{$_} // 0 } @builds;
' "$@"
