/*
 * temp.c - the names clawmd stages under (fs/private.h), and how a temp
 * found later is known to still hold what clawmd staged there.
 */
#include "fs/fs.h"
#include "fs/private.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

/*
 * A temp name: ".<name>.<8 hex random><8 hex digest>.tmp", the name cut
 * short when long.  The leading dot keeps it out of globs and listings.
 * The random half makes it unpredictable; the digest half is the low 32
 * bits of the FNV-1a digest of what is staged (a file's content, a link's
 * target), so a temp found later (a killed run's, or one a failed swap
 * left) is removed only when it still holds what clawmd staged there: after
 * a RENAME_EXCHANGE the temp name holds the agent's file instead.
 */
uint32_t clawmd_fs_digest32(const void *data, size_t len)
{
	return (uint32_t)clawmd_fnv1a64(data, len);
}

void clawmd_fs_temp_name_digest(char *out, size_t size, const char *name, uint32_t digest)
{
	uint64_t r;
	if (getrandom(&r, sizeof(r), 0) != sizeof(r)) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		r = clawmd_fnv1a64(&ts, sizeof(ts)) ^ ((uint64_t)getpid() << 32);
	}
	snprintf(out, size, ".%.24s.%08x%08x.tmp", name, (unsigned)(r & 0xffffffffu),
		 (unsigned)digest);
}

void clawmd_fs_temp_name(char *out, size_t size, const char *name, const void *data, size_t len)
{
	clawmd_fs_temp_name_digest(out, size, name, clawmd_fs_digest32(data, len));
}

const char *clawmd_fs_temp_of(char out[32], const char *name)
{
	size_t len = strlen(name);
	/* ".<base>.<16 hex>.tmp" */
	if (name[0] != '.' || len < 1 + 1 + 1 + 16 + 4 || len > 1 + 24 + 1 + 16 + 4 ||
	    strcmp(name + len - 4, ".tmp") || name[len - 4 - 16 - 1] != '.')
		return NULL;
	for (size_t i = len - 4 - 16; i < len - 4; i++)
		if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
			return NULL;
	size_t blen = len - 1 - 1 - 16 - 4;
	memcpy(out, name + 1, blen);
	out[blen] = '\0';
	return out;
}

/* Whether `data` is what the temp `name` was staged with (its digest half
 * matches).  Nothing is lost with an empty file either. */
bool clawmd_fs_staged_content(const char *name, const void *data, size_t len)
{
	char buf[32];
	size_t nl = strlen(name);
	if (!len)
		return true;
	if (!clawmd_fs_temp_of(buf, name))
		return false;
	char hex[9];
	memcpy(hex, name + nl - 4 - 8, 8);
	hex[8] = '\0';
	return strtoul(hex, NULL, 16) == clawmd_fs_digest32(data, len);
}
