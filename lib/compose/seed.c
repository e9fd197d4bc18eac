/* seed.c - what compose does for caliban and chimera (seed.h). */
#include "compose/seed.h"
#include "runtime/imports.h" /* each runtime's import syntax */
#include "base/util.h"

#include <stddef.h>
#include <string.h>

#define CALIBAN_LEVELS 4 /* below the fragment: caliban's five levels less
			    the entry's import of it */

/* Each runtime in `runtimes` that reads CLAUDE.md. */
static const struct clawmd_contract *next_reader(const struct clawmd_layout *lay,
						 clawmd_runtimes runtimes, int *rt)
{
	for (int n = clawmd_layout_nruntimes(lay); ++*rt < n;) {
		const struct clawmd_contract *c = clawmd_layout_contract(lay, *rt);
		if ((runtimes & (1u << *rt)) && c && c->entry && !strcmp(c->entry, CLAWMD_ENTRY_NAME))
			return c;
	}
	return NULL;
}

bool clawmd_seed_runs_caliban(const struct clawmd_layout *lay, clawmd_runtimes runtimes)
{
	const struct clawmd_contract *c;
	for (int rt = -1; (c = next_reader(lay, runtimes, &rt));)
		if (c->like == CLAWMD_RUNTIME_CALIBAN)
			return true;
	return false;
}

bool clawmd_seed_import_local(const struct clawmd_layout *lay, clawmd_runtimes runtimes)
{
	const struct clawmd_contract *c;
	bool any = false, only_chimera = true;
	for (int rt = -1; (c = next_reader(lay, runtimes, &rt));) {
		any = true;
		only_chimera &= c->like == CLAWMD_RUNTIME_CHIMERA;
	}
	if (any && only_chimera)
		return false;
	return lay->import_local || clawmd_seed_runs_caliban(lay, runtimes);
}

bool clawmd_seed_caliban_reads(const struct clawmd_layout *lay, clawmd_runtimes runtimes,
			       const char *entry)
{
	for (int rt = 0; rt < clawmd_layout_nruntimes(lay); rt++) {
		const struct clawmd_contract *c = clawmd_layout_contract(lay, rt);
		if ((runtimes & (1u << rt)) && c && c->entry && !strcmp(c->entry, entry) &&
		    c->like == CLAWMD_RUNTIME_CALIBAN)
			return true;
	}
	return false;
}

/* The file of `dir` named `name`, or -1. */
static ptrdiff_t file_index(const struct clawmd_entry *dir, const char *name)
{
	for (size_t i = 0; i < dir->nfiles; i++)
		if (!strcmp(dir->files[i].name, name))
			return (ptrdiff_t)i;
	return -1;
}

void clawmd_seed_hoist(struct clawmd_buf *body, const struct clawmd_entry *dir,
		       const char *dirname)
{
	if (dir->type != CLAWMD_FT_DIR || dir->nfiles < 2)
		return;
	/* the levels caliban reaches each file at, breadth first from the
	 * fragment (0); -1: not reached */
	int *level = clawmd_xcalloc(dir->nfiles, sizeof(int));
	size_t *queue = clawmd_xcalloc(dir->nfiles, sizeof(size_t));
	size_t head = 0, tail = 0;
	for (size_t i = 1; i < dir->nfiles; i++)
		level[i] = -1;
	queue[tail++] = 0;
	while (head < tail) {
		const struct clawmd_entry *f = &dir->files[queue[head]];
		int lv = level[queue[head++]];
		if (lv >= CALIBAN_LEVELS)
			continue;
		char *here = clawmd_xasprintf("/%s", f->name);
		char *fdir = clawmd_path_dir(here);
		for (size_t i = 0; i < f->len;) {
			const char *ln = f->data + i, *nl = memchr(ln, '\n', f->len - i);
			size_t l = nl ? (size_t)(nl - ln) : f->len - i, a, b;
			i += l + (nl != NULL);
			if (nl && l && ln[l - 1] == '\r')
				l--;
			if (!clawmd_caliban_directive(ln, l, &a, &b) || ln[a] == '/' || ln[a] == '~')
				continue;
			char *tok = clawmd_xstrndup(ln + a, b - a);
			char *p = clawmd_path_resolve(fdir, tok);
			ptrdiff_t k = file_index(dir, p + 1);
			if (k > 0 && level[k] < 0) {
				level[k] = lv + 1;
				queue[tail++] = (size_t)k;
			}
			free(p);
			free(tok);
		}
		free(fdir);
		free(here);
	}
	for (size_t i = 1; i < dir->nfiles; i++)
		if (level[i] < 0)
			clawmd_buf_printf(body, "@./%s/%s\n", dirname, dir->files[i].name);
	free(level);
	free(queue);
}
