#!/bin/sh
# make deb: build the Debian packages (debian/) as `dpkg-buildpackage -us
# -uc -b` does on a clean clone, from the files git tracks in this checkout,
# copied to build/deb/clawmd-VERSION: dpkg-buildpackage writes its .deb,
# .buildinfo and .changes beside the source tree, so they land in build/deb/
# and the checkout's own build/ is left alone.  DEB_BUILD_OPTIONS passes
# through (nocheck skips the tests the package build runs).
set -eu
cd "$(dirname "$0")/.."
for tool in dpkg-buildpackage dh git; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "make deb: $tool is missing (apt install dpkg-dev debhelper git)" >&2
		exit 1
	}
done
version=$(sed -n 's/^#define CLAWMD_VERSION "\(.*\)"/\1/p' lib/include/clawmd/base.h)
[ -n "$version" ] || { echo "make deb: no CLAWMD_VERSION in lib/include/clawmd/base.h" >&2; exit 1; }
out=build/deb
src=$out/clawmd-$version
rm -rf "$out"
mkdir -p "$src"
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$src"
# Variables given to `make deb` must not reach the package's own make.
unset MAKEFLAGS MFLAGS MAKELEVEL
# Its output goes to build/deb/build.log too: on a failure in the tests the
# package build runs (dh_auto_test), say which and how to build without.
st=$( { r=0; (cd "$src" && dpkg-buildpackage -us -uc -b) 2>&1 || r=$?; echo $r >"$out/build.status"; } |
	tee "$out/build.log" >&2; cat "$out/build.status")
if [ "$st" != 0 ]; then
	if grep -q 'override_dh_auto_test\] Error' "$out/build.log"; then
		echo "make deb: the package's tests failed (dh_auto_test; what failed is above, all of it in" \
			"build/deb/build.log); each test's file runs alone with prove -v in $src." \
			"DEB_BUILD_OPTIONS=nocheck make deb builds without them." >&2
	else
		echo "make deb: dpkg-buildpackage failed (exit $st; its output is in build/deb/build.log)" >&2
	fi
	exit 1
fi
ls -1 "$out"/*.deb
