#!/bin/sh
# The CI recipes in contrib/ci paste and run: the GitHub Actions workflow
# (clawmd.yml) and the composite action (action.yml) are valid YAML (read
# with libyaml through tests/tools/yaml2json.c), have what GitHub needs
# (triggers, permissions to upload SARIF, shells in a composite action), and
# their shell steps run, in order and as GitHub runs them (bash -eo
# pipefail, each step's env with its ${{ }} expressions evaluated), against
# the repository's example tree (made as scripts/demo.sh makes it) with the
# clawmd under test.  The install step runs with make and sudo stubbed: it
# must call `make install` on clawmd's source.
. "$CLAWMD_TESTS/lib.sh"

S=$CLAWMD_SRC
WF=$S/contrib/ci/clawmd.yml
ACT=$S/contrib/ci/action.yml
expect_ok "yaml2json builds (libyaml)" sh -c \
	"cc -std=c11 -o '$T/yaml2json' '$CLAWMD_TESTS/tools/yaml2json.c' \$(pkg-config --cflags --libs yaml-0.1)"
expect_ok "contrib/ci/clawmd.yml is YAML" "$T/yaml2json" "$WF"
cp "$T/out" "$T/wf.json"
expect_ok "contrib/ci/action.yml is YAML" "$T/yaml2json" "$ACT"
cp "$T/out" "$T/act.json"
printf 'a: 1\na: 2\n' >"$T/dup.yml"
expect_fail 1 "yaml2json refuses a duplicate key (as GitHub does)" "$T/yaml2json" "$T/dup.yml"
expect_grep "naming the file and line" "dup.yml:2: duplicate key 'a'" "$T/err"

# What GitHub needs before running anything.
expect_ok "the workflow: triggers, SARIF upload permission, one job with steps" perl -MJSON::PP -e '
	local $/; my $w = decode_json(<STDIN>);
	exists $w->{on}{pull_request} or die "no pull_request trigger\n";
	($w->{permissions}{"security-events"} // "") eq "write" or die "no security-events: write\n";
	my @j = values %{$w->{jobs}}; @j == 1 && @{$j[0]{steps}} or die "one job with steps\n";
	$j[0]{"runs-on"} =~ /^(ubuntu|debian)/ or die "runs-on\n";' <"$T/wf.json"
expect_ok "the action: composite, every run step with a shell, inputs with defaults" perl -MJSON::PP -e '
	local $/; my $a = decode_json(<STDIN>);
	$a->{runs}{using} eq "composite" or die "not composite\n";
	for (@{$a->{runs}{steps}}) { die "no shell: $_->{name}\n" if exists $_->{run} && !$_->{shell} }
	for (keys %{$a->{inputs}}) { die "no default: $_\n" unless defined $a->{inputs}{$_}{default} }
	length $a->{description} or die "description\n";' <"$T/act.json"
for f in wf act; do
	expect_ok "$f: uploads the SARIF file its lint step writes, with upload-sarif" perl -MJSON::PP -e '
		local $/; my $d = decode_json(<STDIN>);
		my @s = $d->{runs} ? @{$d->{runs}{steps}} : @{(values %{$d->{jobs}})[0]{steps}};
		my ($up) = grep { ($_->{uses} // "") =~ m{^github/codeql-action/upload-sarif@} } @s or die "no upload-sarif\n";
		my ($lint) = grep { ($_->{run} // "") =~ /clawmd check .*--format sarif/ } @s or die "no check --format sarif\n";
		my $file = $up->{with}{sarif_file};
		my $into = $lint->{run} =~ />"?([^\s"]+)"?/ ? $1 : die "the lint step writes no file\n";
		$into eq $file || ($into eq q{$SARIF} && $lint->{env}{SARIF} eq $file) or die "writes $into, uploads $file\n";
		grep { ($_->{run} // "") =~ /clawmd compose .*--check --all/ } @s or die "no drift gate\n";' <"$T/$f.json"
done

# The example tree, as scripts/demo.sh makes it (its copy-mode group), in
# a root of its own: what a host's repository holds.
R=$T/tree
mkdir -p "$R/groups/assistant"
cp -R "$S/container" "$S/skills" "$R/"
cat >"$R/groups/assistant/container.json" <<'JSON'
{
  "skills": "all",
  "mcpServers": {
    "calendar": {
      "command": "calendar-mcp",
      "instructions": "Use the calendar tools for anything about dates and meetings."
    },
    "search": { "command": "search-mcp" }
  }
}
JSON
"$CLAWMD" compose -q -C "$R" --all

# Stubs for the install step: make records its arguments, sudo runs its
# command; clawmd itself is the one under test, on PATH.
mkdir -p "$T/stub" "$T/bin"
printf '#!/bin/sh\necho "make $*" >>"%s/make.log"\n' "$T" >"$T/stub/make"
printf '#!/bin/sh\nexec "$@"\n' >"$T/stub/sudo"
ln -s "$CLAWMD" "$T/bin/clawmd"
chmod +x "$T/stub/make" "$T/stub/sudo"
SRC=$T/src # the clawmd source the workflow checks out
mkdir -p "$SRC/scripts"
printf '#!/bin/sh\necho "install-deps $*" >>"%s/make.log"\n' "$T" >"$SRC/scripts/install-deps.sh"
chmod +x "$SRC/scripts/install-deps.sh"

# A small runner: the steps of a workflow's job or a composite action, in
# order; `uses` steps are listed (with their inputs), `run` steps run in
# $GITHUB_WORKSPACE with bash -eo pipefail and their env; the first failing
# step stops the run, as on GitHub.  An expression it cannot evaluate fails.
cat >"$T/runner.pl" <<'PL'
use strict; use warnings; use JSON::PP;
my ($json, $ws, @in) = @ARGV;
my %in = map { split /=/, $_, 2 } @in;
open my $fh, '<', $json or die; local $/; my $d = decode_json(<$fh>);
my ($steps, %env);
if ($d->{runs}) {
	$steps = $d->{runs}{steps};
	$in{$_} //= $d->{inputs}{$_}{default} for keys %{$d->{inputs}};
} else {
	my $job = (values %{$d->{jobs}})[0];
	%env = (%{$d->{env} // {}}, %{$job->{env} // {}});
	$steps = $job->{steps};
}
sub expr {
	my ($s) = @_;
	$s =~ s{\$\{\{\s*(.*?)\s*\}\}}{
		my $e = $1;
		$e =~ /^inputs\.([\w-]+)$/ ? ($in{$1} // die "no input $1\n")
		: $e =~ /^env\.(\w+)$/ ? ($env{$1} // die "no env $1\n")
		: $e eq 'github.action_path' ? ($ENV{ACTION_PATH} // "$ENV{CLAWMD_SRC}/contrib/ci")
		: die "cannot evaluate \${{ $e }}\n"
	}ge;
	return $s;
}
sub cond {
	my ($c) = @_;
	return 1 unless defined $c;
	$c = expr($c) =~ s/^\s+|\s+$//gr;
	return $c =~ /^(?:inputs\.([\w-]+)) == '([^']*)'$/ ? ($in{$1} // die "no input $1\n") eq $2
		: die "cannot evaluate if: $c\n";
}
my $n = 0;
for my $s (@$steps) {
	my $name = $s->{name} // $s->{uses} // "step " . ++$n;
	if (!cond($s->{if})) { print "skipped: $name\n"; next }
	if ($s->{uses}) {
		my %w = map { $_ => expr($s->{with}{$_}) } sort keys %{$s->{with} // {}};
		print "uses: $s->{uses} ", join(" ", map { "$_=$w{$_}" } sort keys %w), "\n";
		next;
	}
	local %ENV = (%ENV, (map { $_ => expr($env{$_}) } keys %env),
		      (map { $_ => expr($s->{env}{$_}) } keys %{$s->{env} // {}}));
	my $sh = "$ENV{T}/step.sh";
	open my $o, '>', $sh or die; print $o expr($s->{run}); close $o;
	my $rc = system('sh', '-c', 'cd "$1" && exec bash --noprofile --norc -eo pipefail "$2"', 'sh', $ws, $sh) >> 8;
	print "ran: $name: exit $rc\n";
	exit $rc if $rc;
}
PL
run_wf() { # TREE -> the workflow, with the clawmd source checked out into TREE/.clawmd-src
	rm -rf "$1/.clawmd-src" "$T/make.log"
	cp -R "$SRC" "$1/.clawmd-src"
	T=$T PATH="$T/stub:$T/bin:$PATH" perl "$T/runner.pl" "$T/wf.json" "$1"
}
run_act() { # TREE INPUT=VALUE...
	_tree=$1
	shift
	T=$T PATH="$T/stub:$T/bin:$PATH" perl "$T/runner.pl" "$T/act.json" "$_tree" "$@"
}

expect_ok "the workflow runs on the example tree" run_wf "$R"
cp "$T/out" "$T/wf.out"
expect_grep "it installs clawmd with make install on the checked-out source" \
	'^make -C \.clawmd-src install$' "$T/make.log"
expect_grep "after the build dependencies" '^install-deps build$' "$T/make.log"
check "and removes the source from the workspace" test ! -e "$R/.clawmd-src"
expect_grep "the lint step ran" '^ran: Lint \(SARIF for code scanning\): exit 0$' "$T/wf.out"
expect_grep "the SARIF log is uploaded" '^uses: github/codeql-action/upload-sarif@v3 category=clawmd sarif_file=clawmd.sarif$' \
	"$T/wf.out"
expect_ok "the log is SARIF 2.1.0 with no finding" perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>); $d->{version} eq "2.1.0" && !@{$d->{runs}[0]{results}} or die' \
	<"$R/clawmd.sarif"
expect_grep "the drift gate passed" '^ran: Drift gate \(compose --check\): exit 0$' "$T/wf.out"

# Drift and a finding: the log is still uploaded, then the gate fails.
cp -R "$R" "$T/drift"
printf '{ "skills": ["nosuch"] }\n' >"$T/drift/groups/assistant/container.json"
expect_fail 1 "the workflow fails on drift" run_wf "$T/drift"
cp "$T/out" "$T/drift.out"
expect_grep "the lint step passed with findings (exit 1 is for code scanning)" \
	'^ran: Lint \(SARIF for code scanning\): exit 0$' "$T/drift.out"
expect_grep "the findings were uploaded before the gate" '^uses: github/codeql-action/upload-sarif' "$T/drift.out"
expect_ok "the log holds the finding (CM303, an unknown skill)" perl -MJSON::PP -e '
	local $/; my $d = decode_json(<STDIN>); grep { $_->{ruleId} eq "CM303" } @{$d->{runs}[0]{results}} or die' \
	<"$T/drift/clawmd.sarif"
expect_grep "the drift gate failed, exit 1" '^ran: Drift gate \(compose --check\): exit 1$' "$T/drift.out"
check "the gate changed nothing" test ! -e "$T/drift/groups/assistant/.claude-fragments/skill-nosuch.md"

# A tree that cannot be read at all fails the lint step (exit above 1).
mkdir -p "$T/broken/groups/g"
: >"$T/broken/clawmd.json"
expect_fail 3 "a tree clawmd cannot read fails the lint step" run_wf "$T/broken"
expect_grep "at the lint step" '^ran: Lint \(SARIF for code scanning\): exit 3$' "$T/out"

# The composite action, clawmd already installed.
expect_ok "the action runs on the example tree with its defaults" run_act "$R"
cp "$T/out" "$T/act.out"
expect_grep "its install step finds clawmd installed" '^ran: Install clawmd: exit 0$' "$T/act.out"
expect_grep "it uploads its SARIF log" '^uses: github/codeql-action/upload-sarif@v3 category=clawmd sarif_file=clawmd.sarif$' \
	"$T/act.out"
expect_grep "its drift gate passes" '^ran: Drift gate \(compose --check\): exit 0$' "$T/act.out"
expect_fail 1 "the action fails on drift" run_act "$T/drift"
expect_ok "... not with drift-gate: false, and its inputs are used (root, sarif-file, upload)" \
	run_act "$T" root=drift sarif-file=lint.sarif upload=false drift-gate=false
expect_grep "the upload was skipped" '^skipped: Upload to code scanning$' "$T/out"
check "the log went where sarif-file said, relative to the workspace" test -s "$T/lint.sarif"
# Its install step with no clawmd on PATH (only the stubs and a shell):
# make install on the repository the action lives in (here a stand-in,
# whose install-deps.sh is a stub).
mkdir -p "$T/sys" "$SRC/contrib/ci"
for c in sh bash nproc; do ln -s "$(command -v $c)" "$T/sys/$c"; done
rm -f "$T/make.log"
ACTION_PATH=$SRC/contrib/ci T=$T PATH="$T/stub:$T/sys" "$(command -v perl)" "$T/runner.pl" "$T/act.json" "$R" \
	>"$T/out" 2>"$T/err"
expect_grep "the action's install step, clawmd missing, installs the build dependencies" \
	'^install-deps build$' "$T/make.log"
expect_grep "then builds and installs the action's repository" \
	"^make -C $SRC/contrib/ci/../.. install\$" "$T/make.log"
expect_grep "(and fails there, where the stub installed nothing)" '^ran: Install clawmd: exit 127$' "$T/out"
done_testing
