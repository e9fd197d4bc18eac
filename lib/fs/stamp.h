/*
 * stamp.h - when a stat can vouch for a file (private).
 *
 * The no-op record (compose/record.c) and the kept layout copy
 * (layout/layout.c) trust a file they saw before as long as its identity
 * (device, inode, mode, size, mtime, ctime) is unchanged.  Timestamps come
 * from a clock that advances in ticks, so a change made in the same tick as
 * the look that was recorded leaves mtime and ctime as they were (git calls
 * this "racy").  Anything is therefore recorded only when it was last
 * changed clearly before the look began:
 *
 *	struct timespec since = clawmd_stamp_now();  // before reading anything
 *	... read, fstat ...
 *	if (!clawmd_stamp_racy(&st, since)) ... record the identity ...
 */
#ifndef CLAWMD_FS_STAMP_H
#define CLAWMD_FS_STAMP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>

/* A file's identity as a stat gives it: equal identities mean the file
 * was not replaced or changed (unless the change was racy, below). */
struct clawmd_ident {
	uint32_t mode, pad; /* mode 0: nothing there */
	uint64_t dev, ino, size;
	int64_t ms, mns, cs, cns; /* mtime and ctime: seconds, nanoseconds */
};

/* The time a look begins: read it before the look reads anything. */
struct timespec clawmd_stamp_now(void);

/* Whether a file with these times (nanoseconds since the epoch) may have
 * changed after `since` without its times showing it: 10 ms of margin
 * where the filesystem keeps sub-second times, 2 s where it does not
 * (second granularity, FAT's two seconds). */
bool clawmd_stamp_racy_ns(int64_t mtime_ns, int64_t ctime_ns, bool subsecond,
			  struct timespec since);
bool clawmd_stamp_racy(const struct stat *st, struct timespec since);

#endif
