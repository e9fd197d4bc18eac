/* entry.h - the composed entry's digest (private; the rest is public in
 * clawmd/group.h: clawmd_entry_ours(), clawmd_entry_carry()). */
#ifndef CLAWMD_GROUP_ENTRY_H
#define CLAWMD_GROUP_ENTRY_H

#include <stddef.h>

/* The FNV-1a 64 digest of `data` as 16 hex digits: what the header of a
 * composed entry carries for the body after it. */
void clawmd_entry_digest(char out[17], const char *data, size_t len);

#endif
