/* pass.c - a pass over many groups, and the root handle that owns it
 * (pass.h; struct clawmd_root in clawmd/layout.h). */
#include "compose/pass.h"
#include "compose/watch.h"
#include "base/util.h"

#include <string.h>

struct clawmd_pass *clawmd_pass_new(void)
{
	struct clawmd_pass *p = clawmd_xcalloc(1, sizeof(*p));
	p->cap = 256;
	p->v = clawmd_xcalloc(p->cap, sizeof(*p->v));
	return p;
}

struct clawmd_pass *clawmd_pass_watch(void)
{
	struct clawmd_pass *p = clawmd_pass_new();
	p->watched = true;
	p->watch = clawmd_watch_new();
	return p;
}

void clawmd_pass_free(struct clawmd_pass *pass)
{
	if (!pass)
		return;
	clawmd_watch_free(pass->watch);
	for (size_t i = 0; i < pass->cap; i++) {
		free(pass->v[i].key);
		free(pass->v[i].data);
		clawmd_inputs_release(&pass->v[i].facts);
	}
	free(pass->v);
	free(pass);
}

struct clawmd_pass_memo *clawmd_pass_slot(struct clawmd_pass_memo *v, size_t cap, const char *key, size_t klen)
{
	size_t i = (size_t)clawmd_hash64(key, klen) & (cap - 1);
	while (v[i].key && (v[i].klen != klen || memcmp(v[i].key, key, klen)))
		i = (i + 1) & (cap - 1);
	return &v[i];
}

struct clawmd_pass_memo *clawmd_pass_put(struct clawmd_pass *p, const char *key, size_t klen, int rc,
			     const struct clawmd_ident *id)
{
	if ((p->n + 1) * 2 > p->cap) {
		size_t cap = p->cap * 2;
		struct clawmd_pass_memo *v = clawmd_xcalloc(cap, sizeof(*v));
		for (size_t i = 0; i < p->cap; i++)
			if (p->v[i].key)
				*clawmd_pass_slot(v, cap, p->v[i].key, p->v[i].klen) = p->v[i];
		free(p->v);
		p->v = v;
		p->cap = cap;
	}
	struct clawmd_pass_memo *m = clawmd_pass_slot(p->v, p->cap, key, klen);
	if (!m->key) {
		m->key = clawmd_xmalloc(klen + 1); /* source keys hold NUL bytes */
		memcpy(m->key, key, klen);
		m->key[klen] = '\0';
		m->klen = klen;
		p->n++;
	}
	m->rc = rc;
	m->id = *id;
	return m;
}

/*
 * A watched pass lives as long as its host, so it remembers only a
 * source's bytes (one file, noted as read) or a directory's names (noted
 * with the directory's identity), used
 * again only when each fact the read rested on, looked at again now, is
 * found as it was (the check a record's facts get), and remembered only
 * when those facts could vouch for it then: host facts alone, at least
 * one, none lost, none changed too close to the look (fs/stamp.h).
 */
static bool still_true(const struct clawmd_inputs *facts)
{
	struct clawmd_input_dirs dirs;
	bool same = true;
	clawmd_input_dirs_init(&dirs, -1);
	dirs.by_path = true; /* a few facts: no directory opened for them */
	for (size_t i = 0; same && i < facts->n; i++) {
		struct clawmd_ident now;
		same = clawmd_input_look(&now, &facts->v[i], &dirs) == 0 &&
		       clawmd_input_same(&facts->v[i], &now);
	}
	clawmd_input_dirs_release(&dirs);
	return same;
}

/* A file's bytes, or a directory's names: what one fact or a few vouch for. */
static bool watched_kind(const char *key)
{
	return key[0] == CLAWMD_PASS_SOURCE || key[0] == CLAWMD_PASS_FLAT ||
	       key[0] == CLAWMD_PASS_FLAT_NAMES;
}

/* What a watched pass may remember: a file's bytes, for a few thousand
 * files and 64 MiB in all (a host's install tree; what it drops stays
 * until the handle closes). */
static bool keeps(const struct clawmd_pass *pass, const char *key, size_t len)
{
	return !pass->watched ||
	       (watched_kind(key) && pass->n < 4096 && pass->kept + len <= ((size_t)64 << 20));
}

static bool can_vouch(struct clawmd_inputs *facts)
{
	if (!facts->n)
		return false;
	for (size_t i = 0; i < facts->n; i++)
		if (facts->v[i].at != CLAWMD_AT_HOST && facts->v[i].at != CLAWMD_AT_HOST_NOFOLLOW)
			return false;
	return clawmd_inputs_settle(facts);
}

/* Source keys start with a byte no fact key starts with ('0' + base). */
bool clawmd_pass_recall(struct clawmd_pass *pass, const char *key, size_t klen,
			const char **data, size_t *len, struct clawmd_inputs *in)
{
	if (!pass || (pass->watched && !watched_kind(key)))
		return false;
	const struct clawmd_pass_memo *m = clawmd_pass_slot(pass->v, pass->cap, key, klen);
	if (!m->key || !m->data || (pass->watched && !still_true(&m->facts)))
		return false;
	*data = m->data;
	*len = m->len;
	/* Looked at again just now, in a watched pass: as of this compose. */
	struct timespec since = pass->watched && in ? in->since : m->facts.since;
	for (size_t i = 0; i < m->facts.n; i++)
		clawmd_inputs_add(in, &m->facts.v[i], since);
	if (m->facts.lost)
		clawmd_inputs_lose(in);
	return true;
}

void clawmd_pass_remember(struct clawmd_pass *pass, const char *key, size_t klen,
			  const char *data, size_t len, const struct clawmd_inputs *in,
			  size_t from)
{
	static const struct clawmd_ident none;
	if (!pass || !keeps(pass, key, len) || (pass->watched && (!in || !in->on || in->lost)))
		return;
	struct clawmd_pass_memo *m = clawmd_pass_put(pass, key, klen, 0, &none);
	if (m->data)
		pass->kept -= m->len;
	free(m->data);
	m->data = NULL;
	clawmd_inputs_release(&m->facts);
	if (in && in->on) {
		clawmd_inputs_start(&m->facts);
		for (size_t i = from; i < in->n; i++)
			clawmd_inputs_add(&m->facts, &in->v[i], in->since);
		m->facts.since = in->since;
		m->facts.lost = in->lost;
	}
	if (pass->watched && !can_vouch(&m->facts))
		return; /* read again next time */
	m->data = clawmd_xmalloc(len + 1);
	memcpy(m->data, data, len);
	m->data[len] = '\0';
	m->len = len;
	pass->kept += len;
}

/* ---- the root handle: it lives on the floor of the pass it frees ---------- */

void clawmd_root_init(struct clawmd_root *root)
{
	memset(root, 0, sizeof(*root));
	clawmd_layout_init(&root->lay);
}

int clawmd_root_load(struct clawmd_root *root, const char *dir, struct clawmd_err *err)
{
	return clawmd_layout_load(&root->lay, dir, err);
}

void clawmd_root_release(struct clawmd_root *root)
{
	if (!root)
		return;
	clawmd_pass_free(root->pass);
	clawmd_layout_release(&root->lay);
	clawmd_root_init(root);
}
