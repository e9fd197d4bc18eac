/* group.c - the group handle (see group.h and clawmd/group.h). */
#include "group/group.h"
#include "base/util.h"

#include <cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

int clawmd_group_open(struct clawmd_group **out, const struct clawmd_root *root,
		      const char *name, struct clawmd_err *err)
{
	*out = NULL;
	if (!name || !clawmd_name_valid(name, strlen(name)))
		return clawmd_err_set(err, CLAWMD_EINPUT,
				      "invalid group name '%s' (names match "
				      "[A-Za-z0-9][A-Za-z0-9._-]{0,63})",
				      name ? name : "");
	if (clawmd_layout_holds_root(&root->lay, name))
		return clawmd_err_set(err, CLAWMD_EINPUT,
				      "group '%s': its directory holds ROOT ('%s'); a group is never "
				      "the project it runs in", name, root->lay.root);
	struct clawmd_group *g = clawmd_xcalloc(1, sizeof(*g));
	g->lay = &root->lay;
	g->pass = root->pass;
	g->name = clawmd_xstrdup(name);
	g->path = clawmd_path_join(root->lay.groups, name);
	g->shown = clawmd_layout_shown(&root->lay, g->path);
	g->dir = (struct clawmd_dir)CLAWMD_DIR_INIT;
	g->lock = -1;
	g->config_state = CONFIG_UNREAD;
	clawmd_config_init(&g->config);
	clawmd_config_init(&g->config_retired);
	clawmd_inputs_init(&g->inputs);
	*out = g;
	return 0;
}

void clawmd_group_free(struct clawmd_group *g)
{
	if (!g)
		return;
	clawmd_group_unlock(g);
	clawmd_dir_release(&g->dir);
	clawmd_buf_release(&g->config_text);
	cJSON_Delete(g->config_doc);
	clawmd_config_release(&g->config);
	clawmd_config_release(&g->config_retired);
	free(g->config_seen.path);
	clawmd_inputs_release(&g->inputs);
	free(g->name);
	free(g->path);
	free(g->shown);
	free(g->lockpath);
	free(g->config_err);
	free(g);
}

/* Keep `e` as the config's error, when it is one. */
static void config_err_keep(struct clawmd_group *g, const struct clawmd_err *e)
{
	if (!e->code)
		return;
	if (!g->config_err)
		g->config_err = clawmd_xmalloc(sizeof(*g->config_err));
	*g->config_err = *e;
}

const char *clawmd_group_name(const struct clawmd_group *g)
{
	return g->name;
}

const char *clawmd_group_path(const struct clawmd_group *g)
{
	return g->path;
}

int clawmd_group_mounts(struct clawmd_mount **out, size_t *n, const struct clawmd_group *g,
			struct clawmd_err *err)
{
	return clawmd_layout_mounts(out, n, g->lay, g->name, err);
}

int clawmd_group_dir(const struct clawmd_dir **out, struct clawmd_group *g,
		     struct clawmd_err *err)
{
	*out = &g->dir;
	if (g->dir.fd >= 0)
		return 0;
	g->dir.fd = open(g->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (g->dir.fd < 0)
		return errno == ELOOP || errno == ENOTDIR
			       ? clawmd_err_set(err, CLAWMD_EFS,
						"'%s' is a symlink or not a directory; refusing it",
						g->path)
			       : clawmd_err_sys(err, CLAWMD_EFS, "could not open directory '%s'",
						g->path);
	g->dir.path = clawmd_xstrdup(g->path);
	return 0;
}

/*
 * The lock lives in the host-only state directory, not in the group: the
 * group directory is writable by the agent, which could otherwise hold the
 * lock forever or plant a symlink at its name.
 */
/* STATE/locks/<name>, made when first needed (a watched no-op never
 * needs it): the record is written there, whoever took the lock. */
static void lock_path(struct clawmd_group *g)
{
	if (!g->lockpath)
		g->lockpath = clawmd_group_lock_path(g);
}

char *clawmd_group_lock_path(const struct clawmd_group *g)
{
	return clawmd_xasprintf("%s/locks/%s", g->lay->state, g->name);
}

int clawmd_group_lock_write(const struct clawmd_group *g, const void *data, size_t len, off_t at)
{
	struct stat a, b;
	int rc = -1;
	if (g->lock < 0 || !g->lockpath)
		return -1;
	int w = open(g->lockpath, O_WRONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (w < 0)
		return -1;
	/* The same file we hold the lock on, not one put there since. */
	if (fstat(g->lock, &a) == 0 && fstat(w, &b) == 0 && a.st_dev == b.st_dev &&
	    a.st_ino == b.st_ino && pwrite(w, data, len, at) == (ssize_t)len)
		rc = 0;
	if (close(w) < 0)
		rc = -1;
	return rc;
}

int clawmd_group_lock(struct clawmd_group *g, struct clawmd_err *err)
{
	lock_path(g);
	if (g->lock >= 0)
		return 0;
	char *dir = clawmd_path_join(g->lay->state, "locks");
	int rc = clawmd_fs_lock(&g->lock, dir, g->name, g->lay->lock_timeout, err);
	free(dir);
	return rc;
}

int clawmd_group_trylock(struct clawmd_group *g)
{
	if (g->lock >= 0)
		return 0;
	lock_path(g);
	struct stat st;
	int fd = open(g->lockpath, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && flock(fd, LOCK_EX | LOCK_NB) == 0) {
		g->lock = fd;
		return 0;
	}
	if (fd >= 0)
		close(fd);
	return 1;
}

void clawmd_group_unlock(struct clawmd_group *g)
{
	if (g->lock >= 0)
		close(g->lock);
	g->lock = -1;
}

/* The most of a config a flat layout reads or keeps (see below). */
#define GIVEN_FLAT_MAX ((size_t)64 << 20)

/* The parse of a config text about to change goes with it. */
static void config_doc_drop(struct clawmd_group *g)
{
	cJSON_Delete(g->config_doc);
	g->config_doc = NULL;
}

/* A symlinked or non-regular container.json is invalid input, as a
 * malformed one is: the agent wrote it either way. */
static int read_config(struct clawmd_group *g, struct clawmd_err *err)
{
	const struct clawmd_dir *gd;
	int rc = clawmd_group_dir(&gd, g, err);
	if (rc < 0)
		return rc;
	struct clawmd_dir shown = {gd->fd, g->shown};
	struct stat st;
	config_doc_drop(g);
	g->config_since = clawmd_stamp_now();
	/* A layout that may be flat reads past the reader's cap, as it takes
	 * the host's text (clawmd_group_set_config): nanoclaw's runner reads
	 * any size, and the flat document reads the text as it does. */
	rc = clawmd_fs_read_st(&g->config_text, &st, &shown, CLAWMD_CONFIG_NAME,
			       clawmd_layout_flat_possible(g->lay) ? GIVEN_FLAT_MAX
								    : CLAWMD_CONFIG_MAX,
			       err);
	free(g->config_seen.path);
	g->config_seen = (struct clawmd_input){.kind = CLAWMD_INPUT_CONTENT, .at = CLAWMD_AT_GROUP,
					       .path = clawmd_xstrdup(CLAWMD_CONFIG_NAME)};
	clawmd_ident_of(&g->config_seen.id, st.st_mode ? &st : NULL);
	if (rc == 1) {
		g->config_absent = true;
		clawmd_buf_clear(&g->config_text);
		clawmd_buf_put(&g->config_text, "", 0);
		return 0;
	}
	if (rc == CLAWMD_EFS)
		return err->code = CLAWMD_EINPUT;
	if (rc < 0)
		return rc;
	char *path = clawmd_group_config_shown(g, false);
	rc = clawmd_config_parse_doc(&g->config, g->config_text.ptr, g->config_text.len, path, err,
				     &g->config_doc);
	free(path);
	return rc;
}

char *clawmd_group_config_shown(const struct clawmd_group *g, bool given)
{
	char *file = clawmd_path_join(g->shown, CLAWMD_CONFIG_NAME);
	if (!given)
		return file;
	char *path = clawmd_xasprintf("%s (given by the host)", file);
	free(file);
	return path;
}

int clawmd_group_config(const struct clawmd_group_config **out, struct clawmd_group *g,
			struct clawmd_err *err)
{
	*out = &g->config;
	if (g->config_state == CONFIG_GIVEN_KNOWN) { /* bytes that parsed before: parse now */
		char *path = clawmd_group_config_shown(g, true);
		config_doc_drop(g);
		struct clawmd_err e = CLAWMD_ERR_INIT;
		g->config_rc = clawmd_config_parse_doc(&g->config, g->config_text.ptr,
						       g->config_text.len, path, &e, &g->config_doc);
		config_err_keep(g, &e);
		g->config_state = CONFIG_DONE;
		free(path);
	}
	if (g->config_state == CONFIG_UNREAD) {
		struct clawmd_err e = CLAWMD_ERR_INIT;
		g->config_rc = read_config(g, &e);
		config_err_keep(g, &e);
		g->config_state = CONFIG_DONE;
		if (g->config_rc < 0) {
			clawmd_config_release(&g->config);
			clawmd_config_init(&g->config);
		}
	}
	if (g->config_rc < 0 && g->config_err && err && !err->code)
		*err = *g->config_err;
	/* Whoever asks for the config depends on it: a compose under way
	 * records it as it was read. */
	if (!g->config_given && g->config_seen.path)
		clawmd_inputs_add(&g->inputs, &g->config_seen, g->config_since);
	return g->config_rc;
}

void clawmd_group_refresh(struct clawmd_group *g)
{
	struct clawmd_ident now;
	struct clawmd_input_dirs d;
	if (g->config_given || g->config_state == CONFIG_UNREAD || g->dir.fd < 0)
		return;
	clawmd_input_dirs_init(&d, g->dir.fd);
	int rc = clawmd_input_look(&now, &g->config_seen, &d);
	clawmd_input_dirs_release(&d);
	/* Unchanged, and not changed within the racy window of its read. */
	struct clawmd_inputs one = {&g->config_seen, 1, 1, g->config_since, true, false};
	if (rc == 0 && clawmd_input_same(&g->config_seen, &now) && clawmd_inputs_settle(&one))
		return;
	clawmd_config_release(&g->config_retired);
	g->config_retired = g->config;
	clawmd_config_init(&g->config);
	clawmd_buf_clear(&g->config_text);
	config_doc_drop(g);
	free(g->config_err);
	g->config_err = NULL;
	g->config_absent = false;
	g->config_state = CONFIG_UNREAD;
}

/*
 * The configs a host gave that parsed, remembered by their bytes: a host
 * hands a group the same row at every spawn, and the no-op needs only its
 * digest (record.c), not its parse.  Parsing is a function of the bytes
 * alone, so bytes that parsed once are taken as they are and parsed when
 * the plan first asks (clawmd_group_config): a vouched no-op parses
 * nothing.  A few small configs, shared by every handle of the process.
 */
#define KNOWN_CONFIGS 64
#define KNOWN_CONFIG_MAX (64u << 10)
static struct {
	uint64_t digest;
	size_t len;
	char *text;
} known_configs[KNOWN_CONFIGS];
static size_t known_next;
static pthread_mutex_t known_mu = PTHREAD_MUTEX_INITIALIZER;

/* The digest of bytes learned before, found by the bytes themselves: a
 * known config costs a compare, not a hash of its text. */
static bool config_recall(const char *json, size_t len, uint64_t *digest)
{
	bool hit = false;
	pthread_mutex_lock(&known_mu);
	for (size_t i = 0; i < KNOWN_CONFIGS && !hit; i++)
		if (known_configs[i].text && known_configs[i].len == len &&
		    !memcmp(known_configs[i].text, json, len)) {
			*digest = known_configs[i].digest;
			hit = true;
		}
	pthread_mutex_unlock(&known_mu);
	return hit;
}

static void config_learn(const char *json, size_t len, uint64_t digest)
{
	uint64_t had;
	if (len > KNOWN_CONFIG_MAX || config_recall(json, len, &had))
		return;
	char *text = clawmd_xmalloc(len ? len : 1);
	memcpy(text, json, len);
	pthread_mutex_lock(&known_mu);
	free(known_configs[known_next].text);
	known_configs[known_next].digest = digest;
	known_configs[known_next].len = len;
	known_configs[known_next].text = text;
	known_next = (known_next + 1) % KNOWN_CONFIGS;
	pthread_mutex_unlock(&known_mu);
}

/* The host's text becomes the group's config: `cfg` its parse and `doc`
 * the JSON read, or NULL (parsed when the plan asks: CONFIG_GIVEN_KNOWN;
 * or CONFIG_DONE, kept failing with `rc`). */
static void take_given(struct clawmd_group *g, const char *json, size_t len, uint64_t digest,
		       enum clawmd_config_state state, int rc, struct clawmd_group_config *cfg,
		       struct cJSON *doc)
{
	config_doc_drop(g);
	g->config_doc = doc;
	clawmd_config_release(&g->config);
	if (cfg)
		g->config = *cfg;
	else
		clawmd_config_init(&g->config);
	clawmd_buf_clear(&g->config_text);
	clawmd_buf_put(&g->config_text, json, len);
	g->config_state = state;
	g->config_rc = rc;
	g->config_given = true;
	g->config_digest = digest;
	g->config_absent = false;
}

int clawmd_group_set_config(struct clawmd_group *g, const char *json, size_t len,
			    struct clawmd_err *err)
{
	struct clawmd_group_config cfg;
	uint64_t digest;
	if (config_recall(json, len, &digest)) {
		take_given(g, json, len, digest, CONFIG_GIVEN_KNOWN, 0, NULL, NULL);
		return 0;
	}
	digest = clawmd_hash64(json, len);
	char *path = clawmd_group_config_shown(g, true);
	struct cJSON *doc;
	int rc = clawmd_config_parse_doc(&cfg, json, len, path, err, &doc);
	free(path);
	/* The flat document reads the text as nanoclaw reads its row, and
	 * what clawmd's reader refuses there is a warning, not an error
	 * (compose/flat.c): a layout that may be flat keeps the text.  Past
	 * the reader's cap too: nanoclaw composes any row, and the agent can
	 * grow its MCP servers' instructions (the cap ladder then drops
	 * them); a bound remains, far past any document's cap. */
	if (rc < 0 && clawmd_layout_flat_possible(g->lay) && len <= GIVEN_FLAT_MAX) {
		take_given(g, json, len, digest, CONFIG_DONE, rc, NULL, doc);
		config_err_keep(g, err);
		clawmd_err_clear(err);
		return 0;
	}
	if (rc < 0) {
		cJSON_Delete(doc);
		return rc;
	}
	take_given(g, json, len, digest, CONFIG_DONE, 0, &cfg, doc);
	config_learn(json, len, digest);
	return 0;
}

int clawmd_group_runtimes(clawmd_runtimes *set, enum clawmd_runtime *first, struct clawmd_group *g,
			  struct clawmd_err *err)
{
	const struct clawmd_group_config *cfg;
	int rc = clawmd_group_config(&cfg, g, err);
	if (rc < 0)
		return rc;
	*set = g->lay->runtimes;
	*first = g->lay->runtime;
	if (!cfg->nruntime_names)
		return 0;
	*set = 0;
	for (size_t i = 0; i < cfg->nruntime_names; i++) {
		int rt = clawmd_layout_runtime(g->lay, cfg->runtime_names[i]);
		if (rt < 0)
			continue;
		if (!*set)
			*first = (enum clawmd_runtime)rt;
		*set |= 1u << rt;
	}
	/* Only names no contract knows: the default surfaces, as nanoclaw
	 * spawns an unknown provider. */
	if (!*set) {
		*set = 1u << CLAWMD_RUNTIME_CLAUDE;
		*first = CLAWMD_RUNTIME_CLAUDE;
	}
	return 0;
}

char *clawmd_group_unknown_runtime(struct clawmd_group *g, size_t i)
{
	const struct clawmd_group_config *cfg;
	struct clawmd_err scratch = CLAWMD_ERR_INIT;
	if (clawmd_group_config(&cfg, g, &scratch) < 0 || i >= cfg->nruntime_names ||
	    clawmd_layout_runtime(g->lay, cfg->runtime_names[i]) >= 0)
		return NULL;
	const char *name = cfg->runtime_names[i];
	const char *near = clawmd_layout_suggest(g->lay, name);
	char q[200];
	size_t o = 0;
	/* hostile text: printable ASCII kept, the rest escaped, cut short */
	for (const unsigned char *p = (const unsigned char *)name; *p && o + 5 < sizeof(q); p++)
		o += (size_t)snprintf(q + o, sizeof(q) - o, *p >= 0x20 && *p < 0x7f && *p != '\\'
					  ? "%c" : "\\x%02x", *p);
	q[o] = '\0';
	char *cj = clawmd_group_config_shown(g, false), key[40];
	if (i == 0 && cfg->provider_given)
		snprintf(key, sizeof(key), "provider");
	else
		snprintf(key, sizeof(key), "runtimes[%zu]", i - cfg->provider_given);
	char *msg = clawmd_xasprintf("%s: %s: unknown provider '%s'%s%s%s; composing the default "
				     "(Claude Code) surfaces (add it under \"providers\" in "
				     "clawmd.json to give it a contract)", cj,
				     key, q,
				     near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
	free(cj);
	return msg;
}
