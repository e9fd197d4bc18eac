#!/bin/sh
# Run a command in a container-like filesystem, for make e2e.  Must run as
# root inside a private mount namespace (`unshare -m`): nothing mounted here
# is seen by the host, and every mount disappears when the command ends.
#
#   unshare -m sh container.sh -r NEWROOT [-m SRC:DST[:ro]]... [-t DIR]...
#                               [-o DIR]... -C CWD -- CMD...
#
# NEWROOT is an empty directory; a tmpfs is mounted on it that bind-mounts
# every top-level directory of the host (symlinks such as /lib copied as
# symlinks) except /tmp, /app and /workspace, which are fresh tmpfs mounts
# whatever the host has there.  -m binds SRC (a host file or directory) at
# DST, in the order given; -t makes an empty tmpfs directory DST; -o DIR (a
# top-level host directory such as /etc) becomes an overlay whose writes go
# to a tmpfs, so a mount point can be made inside it (e.g. /etc/claude-code).
# A mount point is never created on a host directory: that is an error.
# /app ends read-only, and every bind marked :ro.  CMD runs in a chroot
# there, in CWD.
set -eu
die() { echo "container.sh: $*" >&2; exit 125; }
binds=''
tmps=''
overlays=''
cwd=/
nr=''
while [ $# -gt 0 ]; do
	case $1 in
	-m) binds="$binds
$2"; shift 2 ;;
	-t) tmps="$tmps $2"; shift 2 ;;
	-o) overlays="$overlays ${2#/}"; shift 2 ;;
	-C) cwd=$2; shift 2 ;;
	-r) nr=$2; shift 2 ;;
	--) shift; break ;;
	*) die "unknown option $1" ;;
	esac
done
[ $# -gt 0 ] || die "no command"
[ -n "$nr" ] && [ -d "$nr" ] || die "-r NEWROOT: not a directory"
nr=$(cd "$nr" && pwd -P)
hostdirs=''
# on_host PATH: PATH (in the container) lies on a directory bound from the host
on_host() {
	top=${1#/}
	top=${top%%/*}
	case " $hostdirs " in *" $top "*) return 0 ;; esac
	return 1
}

# Nothing below may leak to the host's mount table.
mount --make-rprivate / || die "cannot make / private (not in a private mount namespace?)"
mount -t tmpfs -o mode=755 e2e-root "$nr" || die "cannot mount a tmpfs (need CAP_SYS_ADMIN)"
for e in /* /.[!.]*; do
	[ -e "$e" ] || [ -L "$e" ] || continue
	name=${e#/}
	case $name in tmp|app|workspace|lost+found) continue ;; esac
	if [ -L "$e" ]; then
		ln -s "$(readlink "$e")" "$nr/$name"
	elif [ -d "$e" ]; then
		mkdir "$nr/$name"
		case " $overlays " in
		*" $name "*)
			# the upper layer lives on a tmpfs that is detached once
			# the overlay holds it
			ov=$nr/.e2e-ov-$name
			mkdir "$ov"
			mount -t tmpfs -o mode=755 e2e-ov "$ov" || die "cannot mount a tmpfs for the overlay of /$name"
			mkdir "$ov/upper" "$ov/work"
			mount -t overlay e2e-ov -o "lowerdir=$e,upperdir=$ov/upper,workdir=$ov/work" \
				"$nr/$name" || die "cannot mount an overlay on /$name"
			umount -l "$ov"
			rmdir "$ov"
			;;
		*)
			mount --rbind "$e" "$nr/$name"
			hostdirs="$hostdirs $name"
			;;
		esac
	fi
done
# The rbind of the directory holding NEWROOT copied NEWROOT's own mount.
if [ -d "$nr$nr" ]; then umount -R "$nr$nr" 2>/dev/null || umount -l "$nr$nr"; fi
mkdir -m 1777 "$nr/tmp"
mount -t tmpfs -o mode=1777 e2e-tmp "$nr/tmp"
for d in app workspace; do
	mkdir "$nr/$d"
	mount -t tmpfs -o mode=755 "e2e-$d" "$nr/$d"
done
for d in $tmps; do
	if [ ! -e "$nr$d" ] && on_host "$d"; then
		die "no mount point $d: making one would write to the host's ${d%/*} (overlay it with -o)"
	fi
	mkdir -p "$nr$d"
	mount -t tmpfs -o mode=755 e2e-t "$nr$d"
done

ro_list=''
old_ifs=$IFS
IFS='
'
for b in $binds; do
	[ -n "$b" ] || continue
	IFS=$old_ifs
	src=${b%%:*}
	rest=${b#*:}
	dst=${rest%%:*}
	opt=${rest#"$dst"}
	[ -e "$src" ] || die "bind source $src does not exist"
	case $dst in /*) ;; *) die "bind target $dst is not absolute" ;; esac
	if [ ! -e "$nr$dst" ] && on_host "$dst"; then
		die "no mount point $dst: making one would write to the host's ${dst%/*} (overlay it with -o)"
	fi
	if [ -d "$src" ]; then
		[ -d "$nr$dst" ] || mkdir -p "$nr$dst"
	else
		[ -e "$nr$dst" ] || { mkdir -p "$(dirname "$nr$dst")" && : >"$nr$dst"; }
	fi
	mount --bind "$src" "$nr$dst"
	[ "$opt" = ":ro" ] && ro_list="$ro_list $dst"
	IFS='
'
done
IFS=$old_ifs
for dst in $ro_list; do
	mount -o remount,bind,ro "$nr$dst"
done
mount -o remount,ro "$nr/app"
exec chroot "$nr" /bin/sh -c 'cd "$1" || exit 125; shift; exec "$@"' sh "$cwd" "$@"
