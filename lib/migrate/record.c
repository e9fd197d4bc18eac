/* record.c - the record of a migrate (migrate/migrate.h): the groups it
 * carried, those that failed and the archives there are, written last and
 * read by the next run (a --force run over a migrated tree rewrites
 * nothing: it holds no time). */
#include "migrate/migrate.h"
#include "base/util.h"
#include "sys/dl.h"

#include <cJSON.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The archives in STATE/archive, sorted: the record lists what exists, not
 * what this particular run moved. */
static cJSON *archives_json(const struct clawmd_layout *lay)
{
	cJSON *arr = cJSON_CreateArray();
	char *adir = clawmd_path_join(lay->state, CLAWMD_MIGRATE_ARCHIVE);
	struct clawmd_dir ad = CLAWMD_DIR_INIT;
	char **v = NULL;
	size_t n = 0, cap = 0;
	if (clawmd_dir_open(&ad, adir, NULL) == 0) {
		DIR *dir = clawmd_fs_list(ad.fd);
		struct dirent *e;
		while (dir && (e = readdir(dir))) {
			if (strncmp(e->d_name, "global-", 7))
				continue;
			clawmd_xgrow(&v, &cap, n + 1, sizeof(*v));
			v[n++] = clawmd_mig_shown(lay, adir, e->d_name);
		}
		if (dir)
			closedir(dir);
	}
	if (n)
		qsort(v, n, sizeof(*v), clawmd_strcmp_ptr);
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(arr, cJSON_CreateString(v[i]));
	clawmd_strv_free(v, n);
	clawmd_dir_release(&ad);
	free(adir);
	return arr;
}

int clawmd_mig_record_write(struct mig *m, struct clawmd_err *err)
{
	const struct clawmd_layout *lay = m->lay;
	struct clawmd_migrate_result *r = m->res;
	struct clawmd_dir sd = CLAWMD_DIR_INIT;
	struct clawmd_buf old = CLAWMD_BUF_INIT;
	int rc = 0;

	cJSON *doc = cJSON_CreateObject();
	cJSON_AddNumberToObject(doc, "clawmd_migrate", 1);
	cJSON *names = cJSON_AddArrayToObject(doc, "groups");
	/* A retry ran only the failed groups: the examined ones stay those of
	 * the run that examined them. */
	char **groups = r->retry ? m->rec.groups : r->groups;
	size_t ngroups = r->retry ? m->rec.ngroups : r->ngroups;
	for (size_t i = 0; i < ngroups; i++)
		cJSON_AddItemToArray(names, cJSON_CreateString(groups[i]));
	/* Failed groups with why; a later run retries them. */
	cJSON *f = cJSON_AddArrayToObject(doc, "failed");
	for (size_t i = 0; i < r->n; i++) {
		if (r->v[i].step != CLAWMD_MIGRATE_ERROR)
			continue;
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "group", r->v[i].group);
		cJSON_AddStringToObject(o, "error", r->v[i].note ? r->v[i].note : "");
		cJSON_AddItemToArray(f, o);
	}
	cJSON_AddItemToObject(doc, "archives", archives_json(lay));
	char *text = cJSON_Print(doc);
	cJSON_Delete(doc);
	if (!text)
		abort();
	size_t len = strlen(text);
	text[len++] = '\n'; /* cJSON_Print's NUL becomes the final newline */

	if (m->opts->dry_run)
		goto done;
	if ((rc = clawmd_fs_mkdirs(lay->state, err)) < 0 ||
	    (rc = clawmd_dir_open(&sd, lay->state, err)) < 0)
		goto out;
	if ((rc = clawmd_mig_clean_temps(m, &sd, NULL, CLAWMD_MIGRATE_RECORD, err)) < 0)
		goto out;
	rc = clawmd_fs_read(&old, &sd, CLAWMD_MIGRATE_RECORD, CLAWMD_MIGRATE_FILE_MAX, NULL);
	if (rc == 0 && old.len == len && !memcmp(old.ptr, text, len)) {
		rc = 0;
		goto out; /* --force over a migrated tree: not even a new inode */
	}
	/* Staged by hand: when the directory cannot be synced after the
	 * rename, the record goes again, so that a failed run never leaves a
	 * record that a power cut could make the only durable change. */
	struct clawmd_stage stg;
	rc = clawmd_fs_stage_file(&stg, &sd, CLAWMD_MIGRATE_RECORD, text, len, err);
	if (rc == 0 && (rc = clawmd_fs_commit(&stg, err)) == 0 &&
	    (rc = clawmd_fs_sync_dir(&sd, err)) < 0)
		unlinkat(sd.fd, CLAWMD_MIGRATE_RECORD, 0);
	clawmd_fs_stage_release(&stg);
	if (rc < 0)
		goto out;
done:
	clawmd_mig_act(m, CLAWMD_MIGRATE_WRITE_RECORD, NULL, clawmd_xstrdup(r->record), NULL, NULL)->bytes =
		len;
	rc = 0;
out:
	free(text);
	clawmd_buf_release(&old);
	clawmd_dir_release(&sd);
	return rc;
}

void clawmd_mig_record_release(struct record *rec)
{
	clawmd_strv_free(rec->groups, rec->ngroups);
	clawmd_strv_free(rec->failed, rec->nfailed);
	memset(rec, 0, sizeof(*rec));
}

/* The strings of `arr` (or of each element's `key`, for objects). */
static char **json_names(size_t *n, const cJSON *arr, const char *key)
{
	char **v = NULL;
	size_t cap = 0;
	const cJSON *it;
	*n = 0;
	cJSON_ArrayForEach(it, arr) {
		const cJSON *s = key ? cJSON_GetObjectItemCaseSensitive(it, key) : it;
		if (!cJSON_IsString(s))
			continue;
		clawmd_xgrow(&v, &cap, *n + 1, sizeof(*v));
		v[(*n)++] = clawmd_xstrdup(s->valuestring);
	}
	return v;
}

/*
 * Read the record, if there is one.  The state directory is the host's,
 * but the read is bounded all the same.  A record that cannot be read or
 * parsed still counts as done (it was written only at the end of a run),
 * with nothing to retry.
 */
void clawmd_mig_record_read(struct record *rec, const struct clawmd_layout *lay)
{
	struct clawmd_dir sd = CLAWMD_DIR_INIT;
	struct clawmd_buf b = CLAWMD_BUF_INIT;
	mode_t t = 0;
	clawmd_mig_record_release(rec);
	if (clawmd_dir_open(&sd, lay->state, NULL) < 0)
		return;
	clawmd_fs_type(&t, &sd, CLAWMD_MIGRATE_RECORD, NULL);
	rec->found = t == S_IFREG;
	if (rec->found && clawmd_fs_read(&b, &sd, CLAWMD_MIGRATE_RECORD, CLAWMD_MIGRATE_FILE_MAX,
					 NULL) == 0) {
		cJSON *doc = cJSON_ParseWithLength(b.ptr, b.len);
		rec->groups = json_names(&rec->ngroups, cJSON_GetObjectItemCaseSensitive(doc, "groups"),
					 NULL);
		rec->failed = json_names(&rec->nfailed,
					 cJSON_GetObjectItemCaseSensitive(doc, "failed"), "group");
		cJSON_Delete(doc);
	}
	clawmd_buf_release(&b);
	clawmd_dir_release(&sd);
}
