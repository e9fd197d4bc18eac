/*
 * dl.h - the one way clawmd loads a shared library (private).
 *
 * Nothing is linked against libgit2, cJSON or md4c: sys/git.c and
 * sys/dlload.c open them here on first use, so that a run which needs none
 * (the per-spawn no-op compose) pays no dynamic loading for them.
 *
 *	void *h = clawmd_dl_open(CLAWMD_CJSON_SONAME, "libcjson.so");
 *	if (!h) ... clawmd_dl_error() says why ...
 *	fn = clawmd_dl_sym(h, "cJSON_Parse");   // NULL when missing
 *
 * sys/dl.c implements this with dlopen(3).  The installed `clawmd` is a
 * static program that links no loader: cmd/front.c defines these three
 * functions instead, and needing a library there hands the run over to the
 * full program before anything was printed or written.
 */
#ifndef CLAWMD_DL_H
#define CLAWMD_DL_H

/* The library by its soname, else by `fallback` (the development name);
 * NULL when neither loads.  Opened RTLD_NOW | RTLD_LOCAL: a symbol is only
 * found through its handle, never by a forwarder looking for itself. */
void *clawmd_dl_open(const char *soname, const char *fallback);
void *clawmd_dl_sym(void *handle, const char *name);
/* Why the last clawmd_dl_open() or clawmd_dl_sym() failed. */
const char *clawmd_dl_error(void);

/*
 * cJSON and md4c (sys/dlload.c), loaded now unless they were: 0, or EFS
 * with what could not be loaded and why.  Every entry point that needs one
 * asks first (config.c, layout.c and migrate.c cJSON, the memory loader
 * md4c), so a missing library is the caller's error, never an abort.
 */
struct clawmd_err;
int clawmd_dl_need_cjson(struct clawmd_err *err);
int clawmd_dl_need_md4c(struct clawmd_err *err);

#endif
