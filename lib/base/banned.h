/*
 * banned.h - functions that invite overflows or hidden global state.  Use
 * the bounded or reentrant form instead (snprintf, memcpy with a length,
 * strtok_r is banned too: write a loop).
 */
#ifndef CLAWMD_BANNED_H
#define CLAWMD_BANNED_H

/*
 * The headers that declare the banned functions come first: with
 * _FORTIFY_SOURCE (Debian's package build) they define inline wrappers
 * named sprintf, strcpy, ..., which the macros below would mangle if one of
 * them were included later.  Their include guards make later includes no-ops.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLAWMD_BANNED(f) sorry_##f##_is_banned_in_clawmd

#undef strcpy
#define strcpy(x, y) CLAWMD_BANNED(strcpy)
#undef strcat
#define strcat(x, y) CLAWMD_BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) CLAWMD_BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) CLAWMD_BANNED(strncat)
#undef sprintf
#define sprintf(...) CLAWMD_BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) CLAWMD_BANNED(vsprintf)
#undef strtok
#define strtok(x, y) CLAWMD_BANNED(strtok)
#undef strtok_r
#define strtok_r(x, y, z) CLAWMD_BANNED(strtok_r)
#undef gets
#define gets(x) CLAWMD_BANNED(gets)
#undef tmpnam
#define tmpnam(x) CLAWMD_BANNED(tmpnam)
#undef mktemp
#define mktemp(x) CLAWMD_BANNED(mktemp)

#endif
