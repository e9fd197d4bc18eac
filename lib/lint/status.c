/* status.c - the per-group summary behind `clawmd status`, built on a group's lint. */
#include "clawmd.h"
#include "lint/lint.h"
#include "base/util.h"
#include "group/group.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- status ------------------------------------------------------------- */

void clawmd_group_status_init(struct clawmd_group_status *st)
{
	memset(st, 0, sizeof(*st));
}

void clawmd_group_status_release(struct clawmd_group_status *st)
{
	if (!st)
		return;
	free(st->group);
	clawmd_strv_free(st->skills, st->nskills);
	clawmd_strv_free(st->fragments, st->nfragments);
	clawmd_group_status_init(st);
}

int clawmd_group_status_get(struct clawmd_group_status *out, struct clawmd_group *grp,
			    const struct clawmd_lint_opts *opts, struct clawmd_err *err)
{
	struct clawmd_findings f;
	struct clawmd_lint_group lg;
	clawmd_group_status_init(out);
	clawmd_findings_init(&f);
	int rc = clawmd_lint_group_run(&lg, &f, grp, opts, err);
	out->group = clawmd_xstrdup(grp->name);
	if (rc < 0)
		goto out;
	out->drift = lg.drift;
	out->all_skills = lg.cfg_ok && lg.cfg->all_skills;
	out->memory_chars = lg.memory_chars;
	out->tokens = (lg.memory_chars + 3) / 4;
	out->nfindings = f.n;
	out->nerrors = clawmd_findings_count(&f, CLAWMD_SEV_ERROR);
	out->npreserved = lg.npreserved;
	enum clawmd_runtime first;
	struct clawmd_err scratch = CLAWMD_ERR_INIT;
	if (lg.cfg_ok && clawmd_group_runtimes(&out->runtimes, &first, grp, &scratch) < 0)
		out->runtimes = 0;
	if (lg.planned && lg.plan.flat) {
		/* one document: no fragments, its skills by their sections */
		out->skills = clawmd_xcalloc(lg.plan.nskills + 1, sizeof(char *));
		for (; out->nskills < lg.plan.nskills; out->nskills++)
			out->skills[out->nskills] = clawmd_xstrdup(lg.plan.skills[out->nskills]);
	} else if (lg.planned) {
		size_t cap = 0, scap = 0;
		static const char skill_prefix[] = CLAWMD_FRAGMENTS_DIR "/skill-";
		for (size_t i = 0; i + 1 < lg.plan.n; i++) {
			const struct clawmd_entry *e = &lg.plan.entries[i];
			const char *name = e->name;
			bool dir = e->type == CLAWMD_FT_DIR;
			clawmd_xgrow(&out->fragments, &cap, out->nfragments + 1, sizeof(char *));
			/* A copied fragment directory: the entry imports its first file. */
			out->fragments[out->nfragments++] =
				dir ? clawmd_xasprintf("%s/%s", name, e->files[0].name) : clawmd_xstrdup(name);
			if (!strncmp(name, skill_prefix, sizeof(skill_prefix) - 1)) {
				const char *s = name + sizeof(skill_prefix) - 1;
				clawmd_xgrow(&out->skills, &scap, out->nskills + 1, sizeof(char *));
				out->skills[out->nskills++] = clawmd_xstrndup(s, strlen(s) - (dir ? 0 : 3));
			}
		}
	}
out:
	clawmd_lint_group_release(&lg);
	clawmd_findings_release(&f);
	return rc;
}

/* ---- skills read on demand ---------------------------------------------- */

size_t clawmd_skills_on_demand(char ***out, const struct clawmd_layout *lay)
{
	size_t n = 0, cap = 0;
	*out = NULL;
	int dfd = open(lay->skills, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return 0;
	}
	for (struct dirent *e; (e = readdir(d)) && n < CLAWMD_ON_DEMAND_MAX;) {
		char p[4096];
		struct stat st;
		if (e->d_name[0] == '.' ||
		    snprintf(p, sizeof(p), "%s/SKILL.md", e->d_name) >= (int)sizeof(p) ||
		    fstatat(dfd, p, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		snprintf(p, sizeof(p), "%s/instructions.md", e->d_name);
		if (fstatat(dfd, p, &st, AT_SYMLINK_NOFOLLOW) == 0)
			continue; /* it ships a fragment: compose inlines it */
		clawmd_xgrow(out, &cap, n + 1, sizeof(**out));
		(*out)[n++] = clawmd_xstrdup(e->d_name);
	}
	closedir(d);
	if (n)
		qsort(*out, n, sizeof(**out), clawmd_strcmp_ptr);
	return n;
}

size_t clawmd_group_on_demand(char **out, struct clawmd_group *grp, char *const *skills, size_t n)
{
	const struct clawmd_group_config *cfg;
	struct clawmd_err err = CLAWMD_ERR_INIT;
	size_t k = 0;
	if (clawmd_group_config(&cfg, grp, &err) < 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		bool in = cfg->all_skills;
		for (size_t j = 0; !in && j < cfg->nskills; j++)
			in = !strcmp(cfg->skills[j], skills[i]);
		if (in)
			out[k++] = skills[i];
	}
	return k;
}
