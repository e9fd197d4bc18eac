#!/bin/sh
# make image: the clawmd image, built with no registry.
#
#   scripts/image.sh [BUILD]
#
# Installs BUILD's program (make install PREFIX=/usr) into a staging tree,
# and builds scripts/image/Dockerfile on clawmd-base:bookworm, the Debian
# root file system scripts/e2e/engine.sh makes with debootstrap and
# imports.  The engine: $DOCKER_HOST when it answers, else a private
# dockerd started (and stopped) here, as make e2e starts it.  Tags
# clawmd:VERSION and clawmd:latest in that engine, and saves the image as
# BUILD/image/clawmd-VERSION.tar (docker save: docker load or podman load
# take it).  Exit status: 0, 1 when it could not build.
set -u
top=$(cd "$(dirname "$0")/.." && pwd -P)
build=$(cd "${1:-$top/build}" && pwd -P) || exit 1
cd "$top" || exit 1
version=$("$build/clawmd" -V | sed -n 's/^clawmd //p')
[ -n "$version" ] || { echo "image.sh: no clawmd in $build (run make first)" >&2; exit 1; }
ctx=$build/image/ctx
rm -rf "$ctx" && mkdir -p "$ctx" || exit 1
make -s BUILD="$build" install PREFIX=/usr DESTDIR="$ctx/root" >"$build/image/install.log" 2>&1 ||
	{ echo "image.sh: make install failed (see $build/image/install.log)" >&2; exit 1; }
# the headers, the static library and the docs are not needed to run it
rm -rf "$ctx/root/usr/include" "$ctx/root/usr/lib" "$ctx/root/usr/share/doc"
cp scripts/image/Dockerfile "$ctx/Dockerfile"

. "$top/scripts/e2e/engine.sh"
if [ -z "${DOCKER_HOST:-}" ] || ! docker version >/dev/null 2>&1; then
	trap 'engine_stop' EXIT
	trap 'exit 1' INT TERM HUP
	engine_start "${E2E_ENGINE_CACHE:-$build/e2e/engine}" || { echo "image.sh: no engine: $engine_why" >&2; exit 1; }
	echo "image.sh: $engine_name (a private dockerd)" >&2
fi
engine_cache=${engine_cache:-${E2E_ENGINE_CACHE:-$build/e2e/engine}}
engine_base_image || { echo "image.sh: $engine_why" >&2; exit 1; }
docker build -q --network host --build-arg VERSION="$version" -t "clawmd:$version" -t clawmd:latest \
	"$ctx" >"$build/image/build.log" 2>&1 ||
	{ echo "image.sh: docker build failed:" >&2; tail -n 5 "$build/image/build.log" >&2; exit 1; }
docker save "clawmd:$version" >"$build/image/clawmd-$version.tar" ||
	{ echo "image.sh: docker save failed" >&2; exit 1; }
# the image answers
docker run --rm --read-only "clawmd:$version" -V >/dev/null ||
	{ echo "image.sh: the image does not run" >&2; exit 1; }
echo "clawmd:$version ($(docker image inspect -f '{{.Id}}' "clawmd:$version" | cut -c1-19)), saved as $build/image/clawmd-$version.tar"
