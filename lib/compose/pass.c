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
	size_t i = (size_t)clawmd_fnv1a64(key, klen) & (cap - 1);
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

/* Source keys start with a byte no fact key starts with ('0' + base). */
bool clawmd_pass_recall(struct clawmd_pass *pass, const char *key, size_t klen,
			const char **data, size_t *len, struct clawmd_inputs *in)
{
	/* A watched pass outlives any edit: it remembers no source. */
	if (!pass || pass->watched)
		return false;
	const struct clawmd_pass_memo *m = clawmd_pass_slot(pass->v, pass->cap, key, klen);
	if (!m->key || !m->data)
		return false;
	*data = m->data;
	*len = m->len;
	for (size_t i = 0; i < m->facts.n; i++)
		clawmd_inputs_add(in, &m->facts.v[i], m->facts.since);
	if (m->facts.lost)
		clawmd_inputs_lose(in);
	return true;
}

void clawmd_pass_remember(struct clawmd_pass *pass, const char *key, size_t klen,
			  const char *data, size_t len, const struct clawmd_inputs *in,
			  size_t from)
{
	static const struct clawmd_ident none;
	if (!pass || pass->watched)
		return;
	struct clawmd_pass_memo *m = clawmd_pass_put(pass, key, klen, 0, &none);
	free(m->data);
	m->data = clawmd_xmalloc(len + 1);
	memcpy(m->data, data, len);
	m->data[len] = '\0';
	m->len = len;
	clawmd_inputs_release(&m->facts);
	if (in && in->on) {
		clawmd_inputs_start(&m->facts);
		for (size_t i = from; i < in->n; i++)
			clawmd_inputs_add(&m->facts, &in->v[i], in->since);
		m->facts.since = in->since;
		m->facts.lost = in->lost;
	}
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
