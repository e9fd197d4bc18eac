#!/bin/sh
# The house's include rules (doc/architecture.md, "Public and private";
# issue 40 item 1), read from the sources' own #include lines:
#  - compose/ includes nothing of render/ (the writer does not stand on the
#    module that emulates the readers: both stand on runtime/);
#  - a header whose opening comment says "private to FOLDER/" is included
#    only by FOLDER/'s own files (the unit tests, which test private
#    functions, aside); every other header of a folder is its interface;
#  - bindings/ includes nothing of cmd/ (the exit statuses are public,
#    clawmd/exit.h);
#  - cmd/ includes only the public header and its own cmd.h (front.c, the
#    static front's stand-in for sys/dl.c, includes sys/dl.h).
. "$CLAWMD_TESTS/lib.sh"

S=$CLAWMD_SRC
rules() { # prints one line per broken rule
	python3 - "$S" <<'PY'
import os, re, sys
src = sys.argv[1]
inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
files = []
for top in ("lib", "cmd", "bindings", "bench"):
    for d, _, names in os.walk(os.path.join(src, top)):
        for n in names:
            if n.endswith((".c", ".h")) and "node_modules" not in d:
                files.append(os.path.relpath(os.path.join(d, n), src))
# headers private to a folder: "private to FOLDER/" in their first comment
private = {}
for f in files:
    if f.startswith("lib/") and f.endswith(".h"):
        text = open(os.path.join(src, f), encoding="utf-8", errors="replace").read()
        m = re.match(r'\s*/\*(.*?)\*/', text, re.S)
        first = re.sub(r'[\s*]+', ' ', m.group(1)) if m else ""
        p = re.search(r'private to ([a-z]+)/', first)
        if p:
            private[f[len("lib/"):]] = p.group(1)
for f in sorted(files):
    text = open(os.path.join(src, f), encoding="utf-8", errors="replace").read()
    parts = f.split("/")
    folder = parts[1] if parts[0] == "lib" else parts[0]
    for h in inc.findall(text):
        if f.startswith("lib/compose/") and h.startswith("render/"):
            print("compose includes render: %s: %s" % (f, h))
        owner = private.get(h)
        if owner and not (f.startswith("lib/") and folder == owner):
            print("a header private to %s/ outside it: %s: %s" % (owner, f, h))
        if f.startswith("bindings/") and "cmd/" in h:
            print("bindings include cmd/: %s: %s" % (f, h))
        if f.startswith("cmd/") and h not in ("clawmd.h", "cmd.h") and \
           not (f == "cmd/front.c" and h == "sys/dl.h"):
            print("cmd/ includes more than the public header: %s: %s" % (f, h))
print("checked %d files, %d headers private to their folder" % (len(files), len(private)), file=sys.stderr)
PY
}
rules >"$T/broken" 2>"$T/count"
expect_eq "every include keeps the house's rules" "$(cat "$T/broken")" ""
expect_grep "... read over the sources, the private headers found" 'checked [1-9][0-9]* files, [1-9][0-9]* headers private' "$T/count"

# The rule catches what it names: a copy of the tree with each kind of
# break in it.
mkdir -p "$T/src/lib/compose" "$T/src/lib/render" "$T/src/lib/lint" "$T/src/bindings/node/src" "$T/src/cmd"
printf '/* load.h - shared (private to render/). */\n' >"$T/src/lib/render/load.h"
printf '/* pub.h - render/s interface. */\n' >"$T/src/lib/render/pub.h"
printf '#include "render/pub.h"\n' >"$T/src/lib/compose/a.c"
printf '#include "render/load.h"\n' >"$T/src/lib/lint/b.c"
printf '#include "render/pub.h"\n' >"$T/src/lib/lint/c.c"
printf '#include "../../../cmd/exit.h"\n' >"$T/src/bindings/node/src/addon.c"
printf '#include "cmd.h"\n#include "fs/fs.h"\n' >"$T/src/cmd/x.c"
S=$T/src rules >"$T/broken" 2>/dev/null
expect_eq "... and names each break" "$(cat "$T/broken")" "bindings include cmd/: bindings/node/src/addon.c: ../../../cmd/exit.h
cmd/ includes more than the public header: cmd/x.c: fs/fs.h
compose includes render: lib/compose/a.c: render/pub.h
a header private to render/ outside it: lib/lint/b.c: render/load.h"
done_testing
