/* json.c - reading ROOT/clawmd.json: its keys flattened into the pairs
 * clawmd_layout_set() applies, and the cache of those pairs kept under
 * ROOT/.clawmd so that a no-op compose loads no cJSON. */
#include "sys/dl.h"
#include "clawmd.h"
#include "fs/fs.h"
#include "fs/stamp.h"
#include "base/jsondiag.h"
#include "layout/json.h"
#include "layout/keys.h"
#include "layout/providers.h"
#include "base/util.h"

#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A JSON value as the string clawmd_layout_set() takes. */
static int json_scalar(char *out, size_t size, const cJSON *v)
{
	if (cJSON_IsString(v))
		return snprintf(out, size, "%s", v->valuestring) < (int)size ? 0 : -1;
	if (cJSON_IsBool(v))
		return snprintf(out, size, "%s", cJSON_IsTrue(v) ? "true" : "false"), 0;
	if (cJSON_IsNumber(v))
		return snprintf(out, size, "%.17g", v->valuedouble), 0;
	return -1;
}

static void note_unknown(struct clawmd_layout *lay, const char *key)
{
	if (lay->nunknown_keys == 64)
		return;
	lay->unknown_keys = clawmd_xrealloc(lay->unknown_keys,
					    (lay->nunknown_keys + 1) * sizeof(char *));
	lay->unknown_keys[lay->nunknown_keys++] = clawmd_xstrdup(key);
}

/*
 * clawmd.json is read in two steps: flattened into the (key, value) pairs
 * it sets, in the order they apply (the preset first, so that the other
 * keys refine it), then applied with clawmd_layout_set(), the one setter
 * the command-line flags use too.  Pairs are NUL-terminated strings:
 *	key value		a layout key ("container.base" for nested ones)
 *	"mount" container host	one entry of "mounts"
 *	"?" key			a key clawmd does not know (warned about)
 * Flattening needs cJSON, and loading cJSON costs a per-spawn compose more
 * than the rest of its work, so the pairs are cached (layout_cache_*).
 */
static void put_str(struct clawmd_buf *b, const char *s)
{
	clawmd_buf_put(b, s, strlen(s) + 1);
}

static int put_scalar(struct clawmd_buf *b, const char *key, const cJSON *v, const char *file,
		      struct clawmd_err *err)
{
	char val[4096];
	if (json_scalar(val, sizeof(val), v) < 0)
		return clawmd_err_set(err, CLAWMD_EINPUT,
				      "%s: %s: expected a string, a number or a boolean (under 4096 bytes)",
				      file, key);
	put_str(b, key);
	put_str(b, val);
	return 0;
}

/* The names of one list key of clawmd.json: what each must be. */
static bool file_name_ok(const char *s)
{
	return clawmd_name_valid(s, strlen(s));
}

static bool runtime_name_ok(const char *s)
{
	return *s; /* clawmd_layout_set() names an unknown one, with the nearest */
}

static const struct list_key {
	const char *key;
	bool (*ok)(const char *name);
	const char *what; /* "expected an array of WHATs" and "expected a WHAT" */
} list_keys[] = {
	{"optional_imports", file_name_ok, "file name of the group ([A-Za-z0-9][A-Za-z0-9._-]{0,63})"},
	{"runtimes", runtime_name_ok, "runtime name (a provider of doc/runtimes.md)"},
};

/* An array of names as the one string "a,b" (no valid name holds a
 * comma), each checked, the bad one named by its index. */
static int put_list(struct clawmd_buf *pairs, const struct list_key *lk, const cJSON *v,
		    const char *file, struct clawmd_err *err)
{
	struct clawmd_buf list = CLAWMD_BUF_INIT;
	const cJSON *sub;
	int i = 0, rc = 0;
	clawmd_buf_put(&list, "", 0);
	if (!cJSON_IsArray(v))
		rc = clawmd_err_set(err, CLAWMD_EINPUT, "%s: %s: expected an array, each a %s", file,
				    lk->key, lk->what);
	cJSON_ArrayForEach(sub, v)
	{
		if (rc < 0)
			break;
		if (!cJSON_IsString(sub) || strchr(sub->valuestring, ',') || !lk->ok(sub->valuestring))
			rc = clawmd_err_set(err, CLAWMD_EINPUT, "%s: %s[%d]: expected a %s", file, lk->key,
					    i, lk->what);
		else
			clawmd_buf_printf(&list, "%s%s", i ? "," : "", sub->valuestring);
		i++;
	}
	if (rc == 0) {
		put_str(pairs, lk->key);
		put_str(pairs, list.ptr);
	}
	clawmd_buf_release(&list);
	return rc;
}

/*
 * "providers": {"NAME": {"like": "codex", "cap": 65536, "reads": [...],
 * "skills": {"discovery": ...}}}, as pairs "providers.NAME.FIELD" VALUE:
 * "like" first (a new provider starts from the one it names), lists
 * joined by commas, "skills" one level down.  Types are checked here,
 * values by clawmd_layout_set().
 */
static int put_provider_field(struct clawmd_buf *pairs, const char *key, const cJSON *v,
			      const char *file, struct clawmd_err *err)
{
	if (cJSON_IsArray(v)) {
		struct clawmd_buf list = CLAWMD_BUF_INIT;
		const cJSON *sub;
		int i = 0, rc = 0;
		clawmd_buf_put(&list, "", 0);
		cJSON_ArrayForEach(sub, v)
		{
			if (!cJSON_IsString(sub) || !sub->valuestring[0] || strchr(sub->valuestring, ',')) {
				rc = clawmd_err_set(err, CLAWMD_EINPUT,
						    "%s: %s[%d]: expected a file name (no comma)", file,
						    key, i);
				break;
			}
			clawmd_buf_printf(&list, "%s%s", i++ ? "," : "", sub->valuestring);
		}
		if (rc == 0) {
			put_str(pairs, key);
			put_str(pairs, list.ptr);
		}
		clawmd_buf_release(&list);
		return rc;
	}
	if (cJSON_IsNull(v)) {
		put_str(pairs, key);
		put_str(pairs, "");
		return 0;
	}
	return put_scalar(pairs, key, v, file, err);
}

static int put_providers(struct clawmd_buf *pairs, const cJSON *prov, const char *file,
			 struct clawmd_err *err)
{
	const cJSON *p, *f, *s;
	char key[256];
	int rc = 0;
	if (!cJSON_IsObject(prov))
		return clawmd_err_set(err, CLAWMD_EINPUT,
				      "%s: providers: expected an object of providers by name", file);
	cJSON_ArrayForEach(p, prov)
	{
		if (strlen(p->string) > 64 || !clawmd_name_valid(p->string, strlen(p->string)) ||
		    strchr(p->string, '.'))
			return clawmd_err_set(err, CLAWMD_EINPUT,
					      "%s: providers: '%s' is not a provider name "
					      "([A-Za-z0-9][A-Za-z0-9_-]{0,63})", file, p->string);
		if (!cJSON_IsObject(p))
			return clawmd_err_set(err, CLAWMD_EINPUT,
					      "%s: providers.%s: expected an object (its contract)", file,
					      p->string);
		const cJSON *like = cJSON_GetObjectItemCaseSensitive(p, "like");
		if (like) {
			snprintf(key, sizeof(key), "providers.%s.like", p->string);
			if ((rc = put_scalar(pairs, key, like, file, err)) < 0)
				return rc;
		}
		cJSON_ArrayForEach(f, p)
		{
			if (!strcmp(f->string, "like") || strlen(f->string) > 64)
				continue;
			if (!strcmp(f->string, "skills") && cJSON_IsObject(f)) {
				cJSON_ArrayForEach(s, f)
				{
					snprintf(key, sizeof(key), "providers.%s.skills.%.64s", p->string,
						 s->string);
					if ((rc = put_provider_field(pairs, key, s, file, err)) < 0)
						return rc;
				}
				continue;
			}
			snprintf(key, sizeof(key), "providers.%s.%s", p->string, f->string);
			/* a legacy spec's sections go as their JSON text, checked
			 * by the contract's reader (providers.c) */
			if (!strcmp(f->string, "sections")) {
				char *t = cJSON_PrintUnformatted(f);
				put_str(pairs, key);
				put_str(pairs, t ? t : "-"); /* out of memory: refused by the reader */
				cJSON_free(t);
				continue;
			}
			if ((rc = put_provider_field(pairs, key, f, file, err)) < 0)
				return rc;
		}
	}
	return 0;
}

/* Text that is no JSON: say what was expected and what was found, where. */
static int json_error(const struct clawmd_buf *text, const char *file, struct clawmd_err *err)
{
	char what[256];
	size_t off = clawmd_json_diagnose(what, sizeof(what), text->ptr, text->len);
	if (off > text->len)
		off = 0, snprintf(what, sizeof(what), "malformed JSON");
	size_t line = 1, col = 1;
	for (size_t i = 0; i < off; i++, col++)
		if (text->ptr[i] == '\n')
			line++, col = 0;
	return clawmd_err_set(err, CLAWMD_EINPUT, "%s:%zu:%zu: %s", file, line, col, what);
}

/* "mounts": [{"container": "/abs", "host": "path"}, ...], a "mount" pair each. */
static int put_mounts(struct clawmd_buf *pairs, const cJSON *item, const char *file,
		      struct clawmd_err *err)
{
	const cJSON *sub;
	int i = 0;
	cJSON_ArrayForEach(sub, item)
	{
		const cJSON *c = cJSON_GetObjectItemCaseSensitive(sub, "container");
		const cJSON *h = cJSON_GetObjectItemCaseSensitive(sub, "host");
		if (!cJSON_IsString(c) || c->valuestring[0] != '/' || !cJSON_IsString(h) ||
		    !h->valuestring[0])
			return clawmd_err_set(err, CLAWMD_EINPUT,
					      "%s: mounts[%d]: expected {\"container\": \"/abs\", "
					      "\"host\": \"path\"}", file, i);
		if (clawmd_path_dotted(c->valuestring))
			return clawmd_err_set(err, CLAWMD_EINPUT,
					      "%s: mounts[%d].container: expected an absolute path with "
					      "no '.' or '..' component, not '%s'", file, i,
					      c->valuestring);
		put_str(pairs, "mount");
		put_str(pairs, c->valuestring);
		put_str(pairs, h->valuestring);
		i++;
	}
	return 0;
}

/* "container": {...}, each key as "container.KEY". */
static int put_container(struct clawmd_buf *pairs, const cJSON *item, const char *file,
			 struct clawmd_err *err)
{
	const cJSON *sub;
	int rc;
	if (!cJSON_IsObject(item))
		return clawmd_err_set(err, CLAWMD_EINPUT, "%s: container: expected an object", file);
	cJSON_ArrayForEach(sub, item)
	{
		char key[64];
		snprintf(key, sizeof(key), "container.%s", sub->string);
		if (!clawmd_layout_key_known(key)) {
			put_str(pairs, "?");
			put_str(pairs, key);
		} else if ((rc = put_scalar(pairs, key, sub, file, err)) < 0) {
			return rc;
		}
	}
	return 0;
}

/* Any other top-level key: a list of names, setting_sources as an array,
 * a scalar, or an unknown key ("?"). */
static int put_key(struct clawmd_buf *pairs, const char *k, const cJSON *item, const char *file,
		   struct clawmd_err *err)
{
	/* A list of names, kept as "a,b"; clawmd_layout_set() checks
	 * each name, as it checks the same list given as a string. */
	const struct list_key *lk = NULL;
	for (size_t i = 0; i < CLAWMD_ARRAY_SIZE(list_keys); i++)
		if (!strcmp(k, list_keys[i].key))
			lk = &list_keys[i];
	if (lk)
		return put_list(pairs, lk, item, file, err);
	if (!strcmp(k, "setting_sources") && cJSON_IsArray(item)) {
		/* ["project", "user"], as the SDK's settingSources is written */
		const cJSON *sub;
		struct clawmd_buf list = CLAWMD_BUF_INIT;
		clawmd_buf_put(&list, "", 0);
		cJSON_ArrayForEach(sub, item)
			clawmd_buf_printf(&list, "%s%s", list.len ? "," : "",
					  cJSON_IsString(sub) ? sub->valuestring : "?");
		put_str(pairs, k);
		put_str(pairs, list.ptr);
		clawmd_buf_release(&list);
		return 0;
	}
	if (!clawmd_layout_key_known(k)) {
		put_str(pairs, "?");
		put_str(pairs, k);
		return 0;
	}
	return put_scalar(pairs, k, item, file, err);
}

static int flatten_json(struct clawmd_buf *pairs, const struct clawmd_buf *text, const char *file,
			struct clawmd_err *err)
{
	int need = clawmd_dl_need_cjson(err);
	if (need < 0)
		return need;
	size_t nul = clawmd_json_nul_at(text->ptr, text->len);
	if (nul < text->len) {
		size_t line = 1;
		for (size_t i = 0; i < nul; i++)
			line += text->ptr[i] == '\n';
		return clawmd_err_set(err, CLAWMD_EINPUT, "%s:%zu: a NUL character (\\u0000): "
				      "cJSON would cut the name or value it is in short", file, line);
	}
	cJSON *doc = cJSON_ParseWithLength(text->ptr, text->len);
	const cJSON *item;
	int rc = 0, nmounts = 0;
	clawmd_buf_clear(pairs);
	if (!doc) {
		rc = json_error(text, file, err);
		goto out;
	}
	if (!cJSON_IsObject(doc)) {
		rc = clawmd_err_set(err, CLAWMD_EINPUT, "%s: expected a JSON object at the top", file);
		goto out;
	}
	const cJSON *preset = cJSON_GetObjectItemCaseSensitive(doc, "preset");
	if (preset && (rc = put_scalar(pairs, "preset", preset, file, err)) < 0)
		goto out;
	/* The providers next: "runtimes" may name one of them. */
	const cJSON *prov = cJSON_GetObjectItemCaseSensitive(doc, "providers");
	if (prov && (rc = put_providers(pairs, prov, file, err)) < 0)
		goto out;
	cJSON_ArrayForEach(item, doc)
	{
		const char *k = item->string;
		if (!strcmp(k, "preset") || !strcmp(k, "providers") || k[0] == '$' ||
		    !strcmp(k, "comment"))
			continue; /* the preset and providers came first; "$schema", comments */
		if (!strcmp(k, "mounts") && (!cJSON_IsArray(item) || nmounts++)) {
			rc = clawmd_err_set(err, CLAWMD_EINPUT, nmounts > 1
				? "%s: mounts: given twice" : "%s: mounts: expected an array", file);
			goto out;
		}
		if (!strcmp(k, "mounts"))
			rc = put_mounts(pairs, item, file, err);
		else if (!strcmp(k, "container"))
			rc = put_container(pairs, item, file, err);
		else
			rc = put_key(pairs, k, item, file, err);
		if (rc < 0)
			goto out;
	}
out:
	cJSON_Delete(doc);
	return rc;
}

/* The next NUL-terminated string of `pairs` at *at, or NULL past the end. */
static const char *next_str(const struct clawmd_buf *pairs, size_t *at)
{
	if (*at >= pairs->len)
		return NULL;
	const char *s = pairs->ptr + *at, *nul = memchr(s, '\0', pairs->len - *at);
	if (!nul)
		return NULL;
	*at += (size_t)(nul - s) + 1;
	return s;
}

static int apply_pairs(struct clawmd_layout *lay, const struct clawmd_buf *pairs, const char *file,
		       struct clawmd_err *err)
{
	size_t at = 0;
	const char *k, *v;
	while ((k = next_str(pairs, &at))) {
		if (!(v = next_str(pairs, &at)))
			return clawmd_err_set(err, CLAWMD_EINPUT, "%s: unreadable", file);
		if (!strcmp(k, "?")) {
			note_unknown(lay, v);
			continue;
		}
		if (!strcmp(k, "mount")) {
			const char *h = next_str(pairs, &at);
			if (!h)
				return clawmd_err_set(err, CLAWMD_EINPUT, "%s: unreadable", file);
			lay->mounts = clawmd_xrealloc(lay->mounts, (lay->nmounts + 1) * sizeof(*lay->mounts));
			lay->mounts[lay->nmounts].container = clawmd_xstrdup(v);
			lay->mounts[lay->nmounts].host = clawmd_layout_host_path(lay, h);
			lay->nmounts++;
			continue;
		}
		struct clawmd_err e2 = CLAWMD_ERR_INIT;
		if (clawmd_layout_set(lay, k, v, &e2) < 0)
			return clawmd_err_set(err, CLAWMD_EINPUT, "%s: %s", file, e2.msg[0] ? e2.msg : k);
	}
	return 0;
}

/*
 * The cache of clawmd.json's pairs, ROOT/.clawmd/layout (only when
 * ROOT/.clawmd exists: a layout that keeps its state elsewhere parses
 * clawmd.json every time).  It is trusted while clawmd.json's identity
 * (device, inode, mode, size, mtime, ctime) is the one it was made from,
 * under this version of clawmd; it is made only from a clawmd.json that
 * was last changed clearly before it was read (clawmd_stamp_racy), as
 * the no-op record is.  A torn or foreign cache fails its checksum and
 * only costs the parse:
 *	magic[16] ident:{mode dev ino size mtime.s mtime.ns ctime.s ctime.ns}:u64
 *	version NUL pairs checksum:u64
 */
#define LAYOUT_CACHE_MAGIC "clawmd-layout\x01\n\n"

static void layout_ident(uint64_t id[8], const struct stat *st)
{
	id[0] = st->st_mode, id[1] = st->st_dev, id[2] = st->st_ino, id[3] = (uint64_t)st->st_size;
	id[4] = (uint64_t)st->st_mtim.tv_sec, id[5] = (uint64_t)st->st_mtim.tv_nsec;
	id[6] = (uint64_t)st->st_ctim.tv_sec, id[7] = (uint64_t)st->st_ctim.tv_nsec;
}

/*
 * The kept copy, read whole in one read: ROOT/.clawmd is the host's own
 * state directory, never mounted into a container, so its files need not
 * go through the one open for what an agent may have planted (fs.h), which
 * costs a no-op compose four more system calls.  Still: no symlink
 * followed, nothing but a regular file read, and never a wait on a FIFO.
 */
static int read_kept(struct clawmd_buf *out, const struct clawmd_dir *root, size_t max)
{
	struct stat st;
	int fd = openat(root->fd, ".clawmd/layout", O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	int rc = -1;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= max) {
		clawmd_buf_clear(out);
		clawmd_buf_grow(out, (size_t)st.st_size + 1);
		ssize_t n = pread(fd, out->ptr, (size_t)st.st_size + 1, 0);
		if (n == st.st_size) { /* all of it: one byte more was asked for */
			out->len = (size_t)n;
			out->ptr[n] = '\0';
			rc = 0;
		}
	}
	close(fd);
	return rc;
}

static bool layout_cache_get(struct clawmd_buf *pairs, const struct clawmd_dir *root,
			     const struct stat *json)
{
	struct clawmd_buf c = CLAWMD_BUF_INIT;
	uint64_t id[8], sum;
	const size_t head = 16 + sizeof(id), vl = strlen(CLAWMD_VERSION) + 1;
	bool ok = false;
	layout_ident(id, json);
	if (read_kept(&c, root, CLAWMD_LAYOUT_JSON_MAX * 2) != 0 ||
	    c.len < head + vl + 8 || memcmp(c.ptr, LAYOUT_CACHE_MAGIC, 16) ||
	    memcmp(c.ptr + 16, id, sizeof(id)) || memcmp(c.ptr + head, CLAWMD_VERSION, vl))
		goto out;
	memcpy(&sum, c.ptr + c.len - 8, 8);
	if (sum != clawmd_fnv1a64(c.ptr, c.len - 8))
		goto out;
	clawmd_buf_clear(pairs);
	clawmd_buf_put(pairs, c.ptr + head + vl, c.len - 8 - head - vl);
	ok = true;
out:
	clawmd_buf_release(&c);
	return ok;
}

/* What layout_cache_get() accepts, for clawmd_layout_keep() to write. */
static void layout_cache_make(struct clawmd_buf *out, const struct clawmd_buf *pairs,
			      const struct stat *json)
{
	uint64_t id[8], sum;
	clawmd_buf_clear(out);
	layout_ident(id, json);
	clawmd_buf_put(out, LAYOUT_CACHE_MAGIC, 16);
	clawmd_buf_put(out, id, sizeof(id));
	put_str(out, CLAWMD_VERSION);
	clawmd_buf_put(out, pairs->ptr, pairs->len);
	sum = clawmd_fnv1a64(out->ptr, out->len);
	clawmd_buf_put(out, &sum, 8);
}

void clawmd_layout_keep(const struct clawmd_layout *lay)
{
	struct clawmd_dir root = CLAWMD_DIR_INIT, state = CLAWMD_DIR_INIT;
	struct clawmd_stage st = {0};
	struct clawmd_err e = CLAWMD_ERR_INIT;
	if (!lay->json_cache.len || clawmd_dir_open(&root, lay->root, &e) < 0 ||
	    clawmd_dir_openat(&state, &root, ".clawmd", true, &e) != 0)
		goto out;
	/* Unsynced: a crash can only leave a cache that fails its checksum. */
	if (clawmd_fs_stage_file_unsynced(&st, &state, "layout", lay->json_cache.ptr,
					  lay->json_cache.len, &e) == 0)
		(void)clawmd_fs_commit(&st, &e);
	clawmd_fs_stage_release(&st);
out:
	clawmd_dir_release(&state);
	clawmd_dir_release(&root);
}

int clawmd_layout_load_json(struct clawmd_layout *lay, struct clawmd_err *err)
{
	struct clawmd_dir root = CLAWMD_DIR_INIT;
	struct clawmd_buf text = CLAWMD_BUF_INIT, pairs = CLAWMD_BUF_INIT;
	struct timespec since = clawmd_stamp_now();
	struct stat st;
	char *file = NULL;
	int rc = clawmd_dir_open(&root, lay->root, err);
	if (rc < 0)
		return rc;
	/* Named as every other file is (clawmd_layout_shown): from where
	 * the command ran, so an editor opens it from there. */
	char *abs = clawmd_path_join(lay->root, "clawmd.json");
	file = clawmd_layout_shown(lay, abs);
	free(abs);
	if (fstatat(root.fd, "clawmd.json", &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT) /* else no file: the defaults stand */
			rc = clawmd_err_sys(err, CLAWMD_EFS, "could not read '%s'", file);
		goto out;
	}
	bool cached = S_ISREG(st.st_mode) && layout_cache_get(&pairs, &root, &st);
	if (!cached) {
		rc = clawmd_fs_read(&text, &root, "clawmd.json", CLAWMD_LAYOUT_JSON_MAX, err);
		if (rc != 0)
			goto out; /* 1: gone since */
		if ((rc = flatten_json(&pairs, &text, file, err)) < 0)
			goto out;
	}
	if ((rc = apply_pairs(lay, &pairs, file, err)) < 0)
		goto out;
	struct clawmd_err e2 = CLAWMD_ERR_INIT;
	if (clawmd_layout_providers_check(lay, &e2) < 0) {
		rc = clawmd_err_set(err, CLAWMD_EINPUT, "%s: %s", file, e2.msg);
		goto out;
	}
	/* Kept only when the identity stat'ed is surely the content read: a
	 * file edited or replaced after `since` has a newer identity, which
	 * the next load will not find in the cache. */
	if (!cached && !clawmd_stamp_racy(&st, since))
		layout_cache_make(&lay->json_cache, &pairs, &st);
out:
	free(file);
	clawmd_buf_release(&text);
	clawmd_buf_release(&pairs);
	clawmd_dir_release(&root);
	return rc < 0 ? rc : 0;
}