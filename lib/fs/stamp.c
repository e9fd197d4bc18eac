/* stamp.c - when a stat can vouch for a file (see stamp.h). */
#include "fs/stamp.h"

struct timespec clawmd_stamp_now(void)
{
	struct timespec ts = {0, 0};
	clock_gettime(CLOCK_REALTIME_COARSE, &ts);
	return ts;
}

bool clawmd_stamp_racy_ns(int64_t mtime_ns, int64_t ctime_ns, bool subsecond,
			  struct timespec since)
{
	int64_t margin = subsecond ? 10000000LL : 2000000000LL;
	int64_t s = (int64_t)since.tv_sec * 1000000000LL + since.tv_nsec - margin;
	return mtime_ns >= s || ctime_ns >= s;
}

bool clawmd_stamp_racy(const struct stat *st, struct timespec since)
{
	int64_t m = (int64_t)st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec;
	int64_t c = (int64_t)st->st_ctim.tv_sec * 1000000000LL + st->st_ctim.tv_nsec;
	return clawmd_stamp_racy_ns(m, c, st->st_mtim.tv_nsec || st->st_ctim.tv_nsec, since);
}
