/* compose.c - the per-spawn job: lock the group, plan, compare, apply. */
#include "clawmd.h"
#include "compose/record.h"
#include "compose/words.h"
#include "compose/flat.h"
#include "group/group.h"
#include "group/tracked.h"
#include "base/util.h"

/* A hand-written entry's text went into CLAUDE.local.md. */
static bool carried(const struct clawmd_changes *ch)
{
	for (size_t i = 0; i < ch->n; i++)
		if (ch->v[i].action == CLAWMD_PRESERVE && ch->v[i].moved_to &&
		    !strcmp(ch->v[i].moved_to, CLAWMD_LOCAL_NAME))
			return true;
	return false;
}

/*
 * A hand-written entry compose moved (into CLAUDE.local.md, or aside) may
 * be text git tracks: stage the move so that it stays in git, and say so
 * in the plan's warnings (group/tracked.h).  ROOT's repository is opened
 * only when something was moved.
 */
static void keep_tracked(struct clawmd_plan *plan, const struct clawmd_changes *ch,
			 struct clawmd_group *g)
{
	struct clawmd_tracked *t = NULL;
	bool opened = false;
	for (size_t i = 0; i < ch->n; i++) {
		const struct clawmd_change *c = &ch->v[i];
		if (c->action != CLAWMD_PRESERVE || !c->moved_to || c->old_type != CLAWMD_FT_FILE ||
		    !clawmd_runtime_entry_name(c->name) || (!c->into_local && c->old_unread))
			continue;
		const struct clawmd_buf *data = c->into_local ? &c->carry : &c->old;
		if (!opened) {
			t = clawmd_tracked_open(g->lay);
			opened = true;
		}
		bool failed;
		char *msg = clawmd_tracked_move(t, g->name, c->name, c->moved_to,
						data->ptr ? data->ptr : "", data->len, false, &failed);
		if (msg)
			clawmd_plan_add_warning(plan, msg);
	}
	clawmd_tracked_close(t);
}

/* The warnings of a later plan that `first` lacks move into it. */
static void take_new_warnings(struct clawmd_plan *first, struct clawmd_plan *later)
{
	for (size_t i = 0; i < later->nwarnings; i++) {
		bool had = false;
		for (size_t k = 0; k < first->nwarnings && !had; k++)
			had = !strcmp(first->warnings[k], later->warnings[i]);
		if (had)
			continue;
		clawmd_plan_add_warning(first, later->warnings[i]);
		later->warnings[i] = NULL;
	}
}

/* Whether what was just written changes what the plan wants: an inlined
 * entry holds the memory's text, and a hand-written entry's text just went
 * into CLAUDE.local.md. */
static bool wrote_own_input(const struct clawmd_plan *plan, const struct clawmd_changes *ch)
{
	return plan->inlined && carried(ch);
}

/* Plan, compare and apply once more, after a write that changed what the
 * plan wants (wrote_own_input), so that the inlined entry holds the carried
 * text too.  What the first round wrote is what the caller reports, with
 * the warnings of this plan it did not have (what the cap ladder left out
 * of the grown entry). */
static int compose_again(struct clawmd_plan *first, struct clawmd_group *g, struct clawmd_err *err)
{
	struct clawmd_plan plan;
	struct clawmd_changes changes;
	clawmd_changes_init(&changes);
	int rc = clawmd_plan_build(&plan, g, err);
	if (rc == 0 && (rc = clawmd_changes_compute(&changes, g, &plan, err)) == 0)
		rc = clawmd_changes_apply(&changes, g, err);
	if (rc == 0)
		take_new_warnings(first, &plan);
	clawmd_changes_release(&changes);
	clawmd_plan_release(&plan);
	return rc;
}

/* Nothing to change: the flat entries' owner record made whole when it is
 * not (one a crash cut short, or one an older clawmd kept elsewhere), then
 * the no-op record of what this compose read.  Under the group's lock. */
static void compose_keep(struct clawmd_plan *plan, struct clawmd_group *g)
{
	if (plan->flat && !clawmd_flat_recorded(g))
		(void)clawmd_flat_remember(g, plan, true);
	clawmd_record_save(g, plan);
}

/*
 * The changes written, under the group's lock, in these steps:
 *  1. what the flat entries will hold is recorded beside what they hold
 *     now, so that a crash during the write leaves both clawmd's;
 *  2. the no-op record is dropped: a run killed halfway must not leave a
 *     record that vouches for what it left behind;
 *  3. the changes are applied;
 *  4. a hand-written entry that was moved is kept in git;
 *  5. the flat entries' owner record is narrowed to what was written (when
 *     step 1 kept anything else);
 *  6. a write that changed the plan's own input is followed by a second
 *     round (compose_again).
 * No record is saved: the next compose reads what this one wrote.
 */
static int compose_write(struct clawmd_plan *plan, struct clawmd_changes *changes,
			 struct clawmd_group *g, struct clawmd_err *err)
{
	bool others = plan->flat && clawmd_flat_remember(g, plan, true);
	clawmd_record_forget(g);
	int rc = clawmd_changes_apply(changes, g, err);
	if (rc != 0)
		return rc;
	keep_tracked(plan, changes, g);
	if (others)
		clawmd_flat_remember(g, plan, false);
	if (wrote_own_input(plan, changes))
		return compose_again(plan, g, err);
	return 0;
}

/*
 * Lock, then either the record shows nothing changed since the last
 * compose that found nothing to do (record.h), or the full compose: plan,
 * compare, apply.  A full compose that finds nothing to do records what
 * it saw; one that changes the group drops the record first.  A config
 * the host gave is not container.json, whose identity the record holds:
 * the record is keyed by its text instead.
 */
int clawmd_compose(struct clawmd_plan *plan, struct clawmd_changes *changes,
		   struct clawmd_group *g, const struct clawmd_compose_opts *opts,
		   struct clawmd_err *err)
{
	const struct clawmd_dir *gd;
	/* A dry run neither trusts nor saves the record. */
	bool record = !opts->dry_run;
	/* A lock the caller took (clawmd_group_lock) is used, and stays
	 * held until clawmd_group_free(), as clawmd/group.h says: only the
	 * lock taken here is let go here. */
	bool held = g->lock >= 0;
	int rc = 0;
	clawmd_plan_init(plan);
	clawmd_changes_init(changes);
	if ((rc = clawmd_opts_version(opts->version, CLAWMD_COMPOSE_OPTS_VERSION,
				      "clawmd_compose_opts", err)) < 0)
		return rc;
	/* A watched pass that saw nothing change since the group was last
	 * verified: no lock, no system call on the group.  Nothing is written,
	 * and a concurrent compose that writes makes events. */
	if (record && clawmd_record_known(plan, g))
		goto noop;
	/* Opened once, for every step below; a missing or symlinked group is
	 * refused before its lock file is made. */
	if ((rc = clawmd_group_dir(&gd, g, err)) < 0)
		return rc;
	if (!opts->dry_run) {
		/* The lock, quickly: its file exists after the first compose and
		 * is free unless another compose of the group runs.  With
		 * record_only, no lock file means no record, and a busy lock a
		 * compose that is changing the group: 1 either way. */
		if (clawmd_group_trylock(g) && (opts->record_only || (rc = clawmd_group_lock(g, err)) < 0))
			return opts->record_only ? 1 : rc;
		if (record && clawmd_record_fresh(plan, g))
			goto noop_locked;
	}
	if (opts->record_only) {
		rc = 1;
		goto out;
	}
	/* From here on every read is noted (fs/inputs.h): the record holds
	 * what this plan and comparison read, as they read it.  A config the
	 * handle read earlier is taken again if it changed since. */
	clawmd_group_refresh(g);
	clawmd_inputs_start(&g->inputs);
	if ((rc = clawmd_plan_build(plan, g, err)) < 0)
		goto out;
	if ((rc = clawmd_changes_compute(changes, g, plan, err)) < 0)
		goto out;
	if (opts->dry_run)
		goto out;
	if (changes->n)
		rc = compose_write(plan, changes, g, err);
	else
		compose_keep(plan, g);
	goto out;
noop_locked:
	if (!held)
		clawmd_group_unlock(g);
noop: /* the plan holds what the record or the watch remembered */
	plan->group = clawmd_xstrdup(g->name);
	changes->group = clawmd_xstrdup(g->name);
	changes->path = clawmd_xstrdup(g->shown);
	return 0;
out:
	clawmd_inputs_release(&g->inputs);
	if (!held)
		clawmd_group_unlock(g);
	return rc;
}
