/*
 * private.h - what the files of fs/ share, and nothing outside fs/ uses.
 *
 * The temp names write.c stages under (temp.c) carry the low bits of a
 * digest of what was staged, so that aside.c removes a temp found later
 * only when it still holds what clawmd put there; both write whole buffers
 * the same way; the one open for reading (fs.c) and the append (aside.c)
 * both reopen an inode through /proc/self/fd, only where /proc is a procfs.
 */
#ifndef CLAWMD_FS_PRIVATE_H
#define CLAWMD_FS_PRIVATE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

/* A directory and a name in it, for a message's "'%s/%s'". */
#define shown(d, name) (d)->path, (name)

/* The low 32 bits of the FNV-1a digest of `data`. */
uint32_t clawmd_fs_digest32(const void *data, size_t len);
/* A fresh temp name for `name` (write.c says its form), its digest half
 * `digest`, or that of `data`. */
void clawmd_fs_temp_name_digest(char *out, size_t size, const char *name, uint32_t digest);
void clawmd_fs_temp_name(char *out, size_t size, const char *name, const void *data, size_t len);
/* Whether `data` is what the temp `name` was staged with (its digest half
 * matches).  Nothing is lost with an empty file either. */
bool clawmd_fs_staged_content(const char *name, const void *data, size_t len);
/* write(2) until all of `p` is written; -1 with errno. */
static inline int clawmd_fs_write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}
/* /proc/self/fd reopens an inode: only when /proc is a procfs (host-owned,
 * checked once a process). */
bool clawmd_fs_proc_fd_usable(void);

#endif
