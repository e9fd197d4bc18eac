/* dl.c - shared libraries loaded on first use, with dlopen(3) (see dl.h). */
#include "sys/dl.h"

#include <dlfcn.h>
#include <stddef.h>

void *clawmd_dl_open(const char *soname, const char *fallback)
{
	/* Never dlopen(""): that is the program itself, whose forwarders
	 * would then call themselves. */
	void *h = soname[0] ? dlopen(soname, RTLD_NOW | RTLD_LOCAL) : NULL;
	return h ? h : dlopen(fallback, RTLD_NOW | RTLD_LOCAL);
}

void *clawmd_dl_sym(void *handle, const char *name)
{
	return dlsym(handle, name);
}

const char *clawmd_dl_error(void)
{
	const char *e = dlerror();
	return e ? e : "unknown error";
}
