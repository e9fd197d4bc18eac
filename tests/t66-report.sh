#!/bin/sh
# report: the HTML page for a fleet, read as text and rendered in a real
# browser (Debian's chromium, headless, offline): every group is on it, the
# bars are as long as the sizes they show, the agent's text is escaped,
# nothing is fetched and no script fails.  One screenshot is kept in
# BUILD/tests/artefacts/ (not in git).
. "$CLAWMD_TESTS/lib.sh"

R=$T/root
make_root "$R"
make_skill "$R" web
make_skill "$R" notes
mkdir -p "$R/modules"
printf 'Schedule with care.\n' >"$R/modules/cli.instructions.md"
# A small budget (100 tokens, 400 characters) so that the bars are long.
printf '{ "mode": "copy", "token_budget": 100, "modules": "modules" }\n' >"$R/clawmd.json"
for g in alpha big codexy broken; do mkdir -p "$R/groups/$g"; done
printf '{ "skills": ["web"], "mcpServers": { "cal": { "instructions": "Use cal." } } }\n' \
	>"$R/groups/alpha/container.json"
# What the agent wrote, hostile: markup, a script, a control byte, bad UTF-8.
printf 'Alpha notes <script>document.title="owned"</script> & <img src=http://example.invalid/x.png>\n\033[31m red \377 end\n' \
	>"$R/groups/alpha/CLAUDE.local.md"
printf '{ "skills": "all" }\n' >"$R/groups/big/container.json"
awk 'BEGIN { for (i = 0; i < 60; i++) print "Remember fact number " i " well." }' \
	>"$R/groups/big/CLAUDE.local.md"
printf '{ "skills": ["notes"], "provider": "codex" }\n' >"$R/groups/codexy/container.json"
printf '{ "skills": ["web",\n' >"$R/groups/broken/container.json"
expect_ok "compose the valid groups" "$CLAWMD" compose -q -C "$R" alpha big codexy

before=$(cd "$R" && find . -printf '%p %i %T@ %s\n' | sort)
expect_ok "report succeeds on a fleet with a broken group" "$CLAWMD" report -C "$R"
cp "$T/out" "$T/report.html"
expect_eq "report reads only" "$(cd "$R" && find . -printf '%p %i %T@ %s\n' | sort)" "$before"
expect_eq "report says nothing on stderr" "$(cat "$T/err")" ""

# ---- the page as text ----
expect_grep "a CSP that allows no network" "Content-Security-Policy content=\"default-src 'none'" \
	"$T/report.html"
check "no external resource: no src= or href= at all" \
	sh -c "! grep -Eiq '<(script|link|img|iframe)[^>]*(src|href)=' '$T/report.html'"
expect_eq "one row per group, in order" \
	"$(grep -o '<tr class=group data-group="[^"]*"' "$T/report.html" | cut -d'"' -f2 | tr '\n' ' ')" \
	"alpha big broken codexy "
expect_grep "the agent's markup is escaped" 'Alpha notes &lt;script&gt;document.title=&quot;owned&quot;&lt;/script&gt; &amp; &lt;img' \
	"$T/report.html"
# A byte outside UTF-8 reaches the agent as U+FFFD (the loader decodes as
# Claude Code does); the page shows that.
expect_grep "a control byte is shown, not sent" "<span class=esc>\\\\x1B</span>\\[31m red $(printf '\357\277\275') end" \
	"$T/report.html"
check "the page is valid UTF-8" sh -c "iconv -f UTF-8 -t UTF-8 '$T/report.html' >/dev/null"
expect_grep "the broken group's finding is on the page" 'CM302 <code>groups/broken/container.json:' \
	"$T/report.html"
expect_grep "... saying what was expected and found" "CM302 <code>groups/broken/container.json:2:1</code> .*expected a value after &#39;,&#39; but found the end of the file" \
	"$T/report.html"
expect_grep "... and why there is no text" 'container.json is invalid: compose refuses this group' "$T/report.html"
expect_grep "the codex group shows its provider and cap" \
	'<td class=provider>codex</td>.*<td class=num>[0-9]+ / 32768 bytes</td>' "$T/report.html"
expect_grep "sources: the base, the skill, the MCP server, the memory" \
	'title="mcp cal: 9 characters"' "$T/report.html"
expect_grep "a module is its own source" 'title="module cli: [0-9]+ characters"' "$T/report.html"

# ---- usage ----
expect_fail 2 "an unknown option is a usage error" "$CLAWMD" report -C "$R" --bogus
expect_grep "... naming it" "report: unknown option '--bogus'" "$T/err"
expect_fail 4 "a missing group is refused" "$CLAWMD" report -C "$R" nosuch
expect_ok "one group" "$CLAWMD" report -C "$R" big
expect_eq "... only it" "$(grep -c '<tr class=group ' "$T/out")" 1
expect_ok "--help" "$CLAWMD" report --help
expect_grep "--help names the man page" 'man clawmd-report' "$T/out"

# ---- in a real browser ----
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROMIUM" ]; then
	echo "# skip: no chromium (scripts/install-deps.sh test installs it)"
	done_testing
fi
# The page as served, with a probe before its own script: it records every
# error, console error and CSP violation, then, once loaded, measures the
# rendered bars and writes what it found into the DOM, which --dump-dom
# prints.
cat >"$T/probe.js" <<'JS'
<script>
var probe = {errors: []};
window.onerror = function (m) { probe.errors.push("error: " + m); };
document.addEventListener("securitypolicyviolation", function (e) { probe.errors.push("csp: " + e.blockedURI); });
var ce = console.error; console.error = function (m) { probe.errors.push("console: " + m); ce.apply(console, arguments); };
window.addEventListener("load", function () {
  var out = [], rows = document.querySelectorAll("tr.group");
  out.push("groups " + Array.prototype.map.call(rows, function (r) { return r.dataset.group; }).join(","));
  document.querySelectorAll(".bar.fleet").forEach(function (b) {
    var w = b.getBoundingClientRect().width - 2, scale = +b.dataset.scale, sum = 0;
    b.querySelectorAll(".seg").forEach(function (s) {
      var want = w * s.dataset.chars / scale, got = s.getBoundingClientRect().width;
      sum += got;
      if (Math.abs(got - want) > 1) out.push("BAD seg " + s.title + " " + got + " want " + want);
    });
    out.push("bar " + b.closest("tr").dataset.group + " " + Math.round(sum) + "/" + Math.round(w));
  });
  out.push("title " + document.title);
  out.push("errors " + probe.errors.length + " " + probe.errors.join(" | "));
  var pre = document.createElement("pre"); pre.id = "probe"; pre.textContent = out.join("\n");
  document.body.appendChild(pre);
});
</script>
JS
sed "/^<head>\$/r $T/probe.js" "$T/report.html" >"$T/probed.html"
mkdir -p "$T/home"
# Offline: no proxy can be reached, and the page's CSP allows no fetch.
chrome() {
	HOME=$T/home timeout -s KILL 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu \
		--no-first-run --proxy-server=127.0.0.1:9 --user-data-dir="$T/home/profile" \
		--virtual-time-budget=5000 --enable-logging=stderr --v=0 "$@"
}
expect_ok "chromium renders the page" chrome --dump-dom "file://$T/probed.html"
sed -n '/<pre id="probe">/,/<\/pre>/p' "$T/out" | sed 's/<[^>]*>//g' >"$T/probe"
cp "$T/err" "$T/chrome.err"
expect_grep "the browser shows every group" '^groups alpha,big,broken,codexy$' "$T/probe"
check "every bar segment is as long as its size (within a pixel)" \
	sh -c "! grep -q '^BAD' '$T/probe'"
# big holds the most text: its bar is the longest, near the budget.
bigw=$(sed -n 's/^bar big \([0-9]*\)\/\([0-9]*\)$/\1/p' "$T/probe")
alphaw=$(sed -n 's/^bar alpha \([0-9]*\)\/\([0-9]*\)$/\1/p' "$T/probe")
check "the bars were measured" test -n "$bigw" -a -n "$alphaw"
check "the bigger group has the longer bar" test "${bigw:-0}" -gt "${alphaw:-0}"
expect_grep "the agent's script did not run" '^title clawmd report$' "$T/probe"
expect_grep "no script error, console error or blocked fetch" '^errors 0 $' "$T/probe"
check "no uncaught error in the browser's log" \
	sh -c "! grep -E 'Uncaught|Refused to' '$T/chrome.err'"

# One screenshot of the whole page, as an artefact of the run.
art=$CLAWMD_BUILD/tests/artefacts
mkdir -p "$art"
rm -f "$art/report.png"
expect_ok "a screenshot" chrome --window-size=1400,900 --screenshot="$art/report.png" \
	"file://$T/report.html"
check "the screenshot is a PNG" sh -c "head -c 8 '$art/report.png' | od -An -c | grep -q 'P   N   G'"
cp "$T/report.html" "$art/report.html"

done_testing
