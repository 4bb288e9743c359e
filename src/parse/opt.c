/*
 * opt: lookup, setting and printing of options through the table in
 * opt_table.c (see opt.h).  The generic types (string, bool, flag, integer,
 * per-direction integer, time, choice) are read and shown here; the table's
 * callbacks handle the rest.  Cross-field checks are in opt_validate.c.
 *
 * Engine options: a row in the engine area (io/engine.h) has a value in a
 * job only when the job's engine lists it.  For any other job its value is
 * its default; setting it checks the value and keeps it as typed only,
 * until ioengine= picks its engine (opt_engine_area_switch) or validation
 * refuses it (opt_engine_owned_check).
 */
#include "parse/opt.h"
#include "io/engine.h"	/* the registry: which engine lists a row, its defaults */
#include "lib/suggest.h"	/* did you mean */

#include <errno.h>	/* EINVAL, ERANGE, ENOMEM */
#include <stdlib.h>	/* malloc, realloc, free */
#include <string.h>	/* strcmp, strlen, memcpy, strdup */
#include <strings.h>	/* strcasecmp */
#include <stdio.h>	/* snprintf */

#define OPT_VAL_MAX 2048	/* a resolved value as text */

const struct opt_def *opt_find(const char *name)
{
	struct opt_iter it = { 0 };
	const struct opt_def *o;

	if (!name)
		return NULL;
	while ((o = opt_next(&it)) != NULL)
		if (!strcmp(o->name, name) || (o->alias[0] && !strcmp(o->alias[0], name)) ||
		    (o->alias[1] && !strcmp(o->alias[1], name)))
			return o;
	return NULL;
}

/* suggest_nearest's list: the supported options' names, in table order. */
static const char *opt_name_at(size_t i, const void *ctx)
{
	struct opt_iter it = { 0 };
	const struct opt_def *o;

	(void)ctx;
	while ((o = opt_next(&it)) != NULL && (i || o->type == OPT_UNSUPPORTED))
		if (o->type != OPT_UNSUPPORTED)
			i--;
	return o ? o->name : NULL;
}

/* The supported option closest to @name within 2 edits, or NULL. */
static const char *opt_suggest(const char *name)
{
	return suggest_nearest(name, opt_name_at, NULL);
}

static uint64_t opt_load(const void *p, size_t width)
{
	uint32_t v32;
	uint64_t v64;

	if (width == 4) {
		memcpy(&v32, p, 4);
		return v32;
	}
	memcpy(&v64, p, 8);
	return v64;
}

static void opt_store(void *p, size_t width, uint64_t v)
{
	uint32_t v32 = (uint32_t)v;

	if (width == 4)
		memcpy(p, &v32, 4);
	else
		memcpy(p, &v, 8);
}

static uint64_t opt_width_max(size_t width)
{
	return width == 4 ? UINT32_MAX : UINT64_MAX;
}

/* Bounds of an integer or time option, in stored units. */
static int opt_check_bounds(const struct opt_def *o, uint64_t v, const char *val,
			    const struct num_ctx *c, struct err *e)
{
	uint64_t max = o->max ? o->max : opt_width_max(o->width);

	if (v < o->min)
		return num_error(e, c, -ERANGE, val, "below the minimum %llu", (unsigned long long)o->min);
	if (v > max)
		return num_error(e, c, -ERANGE, val, "above the maximum %llu", (unsigned long long)max);
	return 0;
}

static int opt_parse_bool(const char *val, const struct num_ctx *c, int *out, struct err *e)
{
	if (!strcmp(val, "0") || !strcmp(val, "1")) {
		*out = val[0] == '1';
		return 0;
	}
	return num_error(e, c, -EINVAL, val, "a boolean is 0 or 1");
}

static int opt_parse_int(struct job *j, const struct opt_def *o, const char *val,
			 const struct num_ctx *c, struct err *e)
{
	uint64_t v;
	int ret = num_parse_u64(val, c, &v, e);

	if (!ret)
		ret = opt_check_bounds(o, v, val, c, e);
	if (!ret)
		opt_store((char *)j + o->off, o->width, v);
	return ret;
}

static int opt_parse_ddir(struct job *j, const struct opt_def *o, const char *val,
			  const struct num_ctx *c, struct err *e)
{
	uint64_t v[DDIR_NR], before[DDIR_NR];
	char *base = (char *)j + o->off;
	int d, ret;

	for (d = 0; d < DDIR_NR; d++)
		before[d] = v[d] = opt_load(base + d * o->width, o->width);
	ret = num_parse_u64_ddir(val, c, v, e);
	for (d = 0; d < DDIR_NR && !ret; d++)
		if (v[d] != before[d])
			ret = opt_check_bounds(o, v[d], val, c, e);
	for (d = 0; d < DDIR_NR && !ret; d++)
		opt_store(base + d * o->width, o->width, v[d]);
	return ret;
}

static int opt_parse_time(struct job *j, const struct opt_def *o, const char *val,
			  const struct num_ctx *c, struct err *e)
{
	uint64_t us, v;
	int ret = num_parse_time(val, c, o->bare_us, &us, e);

	if (ret)
		return ret;
	if (us % o->unit_us)
		return num_error(e, c, -EINVAL, val, "not a whole number of %s",
				 o->unit_us == 1000 ? "milliseconds" : "units");
	v = us / o->unit_us;
	ret = opt_check_bounds(o, v, val, c, e);
	if (!ret)
		opt_store((char *)j + o->off, o->width, v);
	return ret;
}

static int opt_parse_choice(struct job *j, const struct opt_def *o, const char *val,
			    const struct num_ctx *c, struct err *e)
{
	char list[256];
	size_t i, pos = 0;
	int v;

	for (i = 0; o->choices[i].name; i++) {
		if (!strcasecmp(o->choices[i].name, val)) {
			v = o->choices[i].val;
			memcpy((char *)j + o->off, &v, sizeof(v));
			return 0;
		}
	}
	list[0] = '\0';
	for (i = 0; o->choices[i].name && pos < sizeof(list); i++)
		pos += (size_t)snprintf(list + pos, sizeof(list) - pos, "%s%s", i ? ", " : "",
					o->choices[i].name);
	return num_error(e, c, -EINVAL, val, "not one of %s", list);
}

static int opt_parse_str(struct job *j, const struct opt_def *o, const char *val, struct err *e)
{
	char **slot = (char **)((char *)j + o->off);
	char *s = strdup(val ? val : "");

	if (!s)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	free(*slot);
	*slot = s;
	return 0;
}

/* Parse @val into @j according to @o's type. */
static int opt_parse(struct job *j, const struct opt_def *o, const char *val,
		     const struct num_ctx *c, struct err *e)
{
	int b, ret;

	switch (o->type) {
	case OPT_STR:
		return opt_parse_str(j, o, val, e);
	case OPT_BOOL:
	case OPT_FLAG:
		b = 1;
		ret = val ? opt_parse_bool(val, c, &b, e) : 0;
		if (!ret)
			memcpy((char *)j + o->off, &b, sizeof(b));
		return ret;
	case OPT_INT:
		return opt_parse_int(j, o, val, c, e);
	case OPT_INT_DDIR:
		return opt_parse_ddir(j, o, val, c, e);
	case OPT_TIME:
		return opt_parse_time(j, o, val, c, e);
	case OPT_CHOICE:
		return opt_parse_choice(j, o, val, c, e);
	case OPT_FUNC:
		return o->parse(j, o, val, c, e);
	case OPT_UNSUPPORTED:
		break;
	}
	return err_set(e, -EINVAL, EXIT_INTERNAL, "option '%s' has no parser", o->name);
}

#define WHERE(w) (w) ? " (" : "", (w) ? (w) : "", (w) ? ")" : ""

/*
 * fio 3.33 reads "%%" in a value as "%" ("size=100%%", "ss=iops:20%%", as
 * job files generated through printf-style templates have them).  Strings
 * (filenames, descriptions) keep their text; every other value is parsed
 * with each "%%" read as "%".
 */
static int opt_parse_pct2(struct job *j, const struct opt_def *o, const char *val,
			  const struct num_ctx *c, struct err *e)
{
	char buf[1024];
	size_t k = 0;
	const char *p;

	if (!val || o->type == OPT_STR || !strstr(val, "%%") || strlen(val) >= sizeof(buf))
		return opt_parse(j, o, val, c, e);
	for (p = val; *p; p++) {
		buf[k++] = *p;
		if (p[0] == '%' && p[1] == '%')
			p++;
	}
	buf[k] = '\0';
	return opt_parse(j, o, buf, c, e);
}

/* The engine whose options @j's engine area holds (NULL: no engine of this build). */
static const struct engine_ops *opt_job_engine(const struct job *j)
{
	return engine_find(j->ioengine ? j->ioengine : JOB_IOENGINE_DEFAULT);
}

/* True when @o's value is in the engine area and @j's engine does not list @o. */
static int opt_foreign(const struct job *j, const struct opt_def *o)
{
	return engine_opt_in_area(o) && !engine_takes(opt_job_engine(j), o);
}

/*
 * For a row @j holds no value of (opt_foreign): @tmp, a shallow copy of @j
 * whose engine area holds the defaults of @o's engine.  It owns nothing (the
 * area holds no pointer, and @o's callbacks touch only its field there):
 * never job_free() it.
 */
static struct job *opt_foreign_view(const struct job *j, const struct opt_def *o, struct job *tmp)
{
	memcpy(tmp, j, sizeof(*tmp));
	engine_opts_reset(tmp, engine_opt_owner(o, 0));
	return tmp;
}

/*
 * @j's engine changed from @from (NULL: none of this build) to its
 * ioengine's: the engine area takes the new engine's defaults, then the
 * values @j's own "job options" gave its rows, in order (an engine option
 * may come before ioengine=).  Engines sharing one options struct keep the
 * values.  0 or -errno with @e filled.
 */
static int opt_engine_area_switch(struct job *j, const struct engine_ops *from, struct err *e)
{
	const struct engine_ops *to = opt_job_engine(j);
	const struct opt_def *o;
	size_t i;
	int ret;

	if (from && to && from->opts_default == to->opts_default)
		return 0;	/* one options struct (filestat and dirstat; none): the values stay */
	engine_opts_reset(j, to);
	for (i = 0; i < j->opts_nr; i++) {
		struct num_ctx c = { .kb_base = (unsigned)j->kb_base, .opt = j->opts[i].key,
				     .where = j->origin[0] ? j->origin : NULL };

		o = opt_find(j->opts[i].key);
		if (!o || !engine_opt_in_area(o) || !engine_takes(to, o))
			continue;
		ret = opt_parse_pct2(j, o, j->opts[i].val, &c, e);
		if (ret)
			return ret;
	}
	return 0;
}

int opt_set(struct job *j, const char *name, const char *val, const char *where,
	    struct err *e)
{
	const struct opt_def *o = opt_find(name);
	struct num_ctx c = { .kb_base = (unsigned)j->kb_base, .opt = name, .where = where };
	const char *hint;
	int ret;

	if (!o) {
		hint = opt_suggest(name);
		if (hint)
			return err_set(e, -EINVAL, EXIT_USAGE, "unknown option '%s' (did you mean '%s'?)%s%s%s",
				       name, hint, WHERE(where));
		return err_set(e, -EINVAL, EXIT_USAGE, "unknown option '%s'%s%s%s", name, WHERE(where));
	}
	if (o->type == OPT_UNSUPPORTED)
		return err_set(e, -EINVAL, EXIT_USAGE, "unsupported option '%s'%s%s%s%s%s", name,
			       o->help ? ": " : "", o->help ? o->help : "", WHERE(where));
	if (val && !*val && (o->type == OPT_FLAG || (o->flags & OPT_F_OPTVAL)))
		val = NULL;
	if ((!val || !*val) && o->type != OPT_FLAG && !(o->flags & OPT_F_OPTVAL))
		return err_set(e, -EINVAL, EXIT_USAGE, "option '%s' requires an argument%s%s%s", name,
			       WHERE(where));
	if (opt_foreign(j, o)) {
		/* checked now; kept only as typed until ioengine= picks its engine */
		struct job tmp;

		ret = opt_parse_pct2(opt_foreign_view(j, o, &tmp), o, val, &c, e);
	} else if (o->flags & OPT_F_ENGINE) {
		const struct engine_ops *from = opt_job_engine(j);

		ret = opt_parse_pct2(j, o, val, &c, e);
		if (!ret)
			ret = opt_engine_area_switch(j, from, e);
	} else {
		ret = opt_parse_pct2(j, o, val, &c, e);
	}
	if (ret)
		return ret;
	/* fio echoes the canonical name ("rw" for "readwrite"), the value as typed */
	if (job_kv_add(j, o->name, val))
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	return 0;
}

int opt_debug_parse(const char *name, const char *val, char *buf, size_t len)
{
	const struct opt_def *o = opt_find(name);
	int n;

	n = snprintf(buf, len, "handle_option=%s, ptr=%s", o ? o->name : name, val ? val : "(null)");
	if (o && o->debug && val && n >= 0 && (size_t)n + 1 < len) {
		buf[n++] = '\n';
		n += o->debug(val, buf + n, len - (size_t)n);
	}
	return n;
}

/* ---- showing values -------------------------------------------------- */

/* Write @o's value in @j's storage to @buf; returns 1 when unset. */
static int opt_show_value(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	const char *base = (const char *)j + o->off;
	uint64_t v[DDIR_NR];
	const char *s;
	size_t i;
	int iv, d;

	buf[0] = '\0';
	switch (o->type) {
	case OPT_STR:
		memcpy(&s, base, sizeof(s));
		if (!s)
			return 1;
		snprintf(buf, len, "%s", s);
		return 0;
	case OPT_BOOL:
	case OPT_FLAG:
		memcpy(&iv, base, sizeof(iv));
		snprintf(buf, len, "%d", iv ? 1 : 0);
		return 0;
	case OPT_INT:
	case OPT_TIME:
		snprintf(buf, len, "%llu", (unsigned long long)opt_load(base, o->width));
		return 0;
	case OPT_INT_DDIR:
		for (d = 0; d < DDIR_NR; d++)
			v[d] = opt_load(base + d * o->width, o->width);
		if (v[0] == v[1] && v[1] == v[2])
			snprintf(buf, len, "%llu", (unsigned long long)v[0]);
		else
			snprintf(buf, len, "%llu,%llu,%llu", (unsigned long long)v[0],
				 (unsigned long long)v[1], (unsigned long long)v[2]);
		return 0;
	case OPT_CHOICE:
		memcpy(&iv, base, sizeof(iv));
		for (i = 0; o->choices[i].name; i++) {
			if (o->choices[i].val == iv) {
				snprintf(buf, len, "%s", o->choices[i].name);
				return 0;
			}
		}
		return 1;
	case OPT_FUNC:
		return o->show ? o->show(j, o, buf, len) : 1;
	case OPT_UNSUPPORTED:
		break;
	}
	return 1;
}

/*
 * Write @o's resolved value in @j to @buf (an option of an engine other than
 * @j's: its default); returns 1 when unset.
 */
static int opt_show(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	struct job tmp;

	return opt_show_value(opt_foreign(j, o) ? opt_foreign_view(j, o, &tmp) : j, o, buf, len);
}

/* The engines that list @o, space-separated in the registry's order, in @buf. */
static void opt_owners(const struct opt_def *o, char *buf, size_t len)
{
	const struct engine_ops *ops;
	size_t n, pos = 0;

	buf[0] = '\0';
	for (n = 0; (ops = engine_opt_owner(o, n)) != NULL && pos < len; n++)
		pos += (size_t)snprintf(buf + pos, len - pos, "%s%s", n ? " " : "", ops->name);
}

/* True when @j set option @name itself (its "job options"), not inherited it. */
static int opt_own(const struct job *j, const char *name)
{
	size_t i;

	for (i = 0; i < j->opts_nr; i++)
		if (!strcmp(j->opts[i].key, name))
			return 1;
	return 0;
}

/*
 * @o's value as @j's own "job options" set it, for a row @j holds no value
 * of (opt_foreign): its default with every value typed for it applied in
 * order, into @tmp.  Each parsed when it was set, so none fails here.
 */
static const struct job *opt_own_value(const struct job *j, const struct opt_def *o,
				       struct job *tmp)
{
	struct num_ctx c = { .kb_base = (unsigned)j->kb_base, .opt = o->name };
	struct err e;
	size_t i;

	opt_foreign_view(j, o, tmp);
	for (i = 0; i < j->opts_nr; i++)
		if (!strcmp(j->opts[i].key, o->name))
			opt_parse_pct2(tmp, o, j->opts[i].val, &c, &e);
	return tmp;
}

/*
 * fio checks an engine's option against the engine the section ends with,
 * where it is set: a job's own donorname under libaio is refused, while one
 * inherited from a [global] that had ioengine=e4defrag is dropped when the
 * job switches engine (opt_engine_area_switch, opt_engine_drop_inherited).
 */
int opt_engine_owned_check(const struct job *j, struct err *e)
{
	const struct engine_ops *ops = opt_job_engine(j);
	const char *eng = j->ioengine ? j->ioengine : JOB_IOENGINE_DEFAULT;
	struct opt_iter it = { 0 };
	const struct opt_def *o;
	char a[OPT_VAL_MAX], b[OPT_VAL_MAX], owners[256];
	struct job def, tmp;
	int ret = 0, unset_a, unset_b;

	job_init(&def);
	while (!ret && (o = opt_next(&it)) != NULL) {
		if (o->type == OPT_UNSUPPORTED || !opt_own(j, o->name) || engine_takes(ops, o) ||
		    !engine_opt_owner(o, 0))
			continue;
		unset_a = opt_show_value(opt_foreign(j, o) ? opt_own_value(j, o, &tmp) : j, o, a,
					 sizeof(a));
		unset_b = opt_show(&def, o, b, sizeof(b));
		if (unset_a || (!unset_b && !strcmp(a, b)))
			continue;
		opt_owners(o, owners, sizeof(owners));
		if (!j->name[0])	/* a global section: jobs are not named yet */
			ret = err_set(e, -EINVAL, EXIT_USAGE, "job 'global'%s%s%s: option '%s' belongs to "
				      "ioengine %s, not %s", j->origin[0] ? " (" : "", j->origin,
				      j->origin[0] ? ")" : "", o->name, owners, eng);
		else
			ret = job_err(e, j, "option '%s' belongs to ioengine %s, not %s", o->name,
				      owners, eng);
	}
	job_free(&def);
	return ret;
}

void opt_engine_drop_inherited(struct job *j)
{
	const struct engine_ops *ops = opt_job_engine(j);
	struct opt_iter it = { 0 };
	const struct opt_def *o;
	struct job def;

	job_init(&def);
	while ((o = opt_next(&it)) != NULL)
		/*
		 * rows in struct job itself; rows without storage of their own
		 * (cmdprio's) stay: their engines read them
		 */
		if (o->type != OPT_UNSUPPORTED && o->width && !engine_opt_in_area(o) &&
		    !opt_own(j, o->name) && !engine_takes(ops, o) && engine_opt_owner(o, 0))
			memcpy((char *)j + o->off, (const char *)&def + o->off, o->width);
	job_free(&def);
}

/* Rows that appear in resolved lists: supported and owning their storage. */
static int opt_listed(const struct opt_def *o)
{
	return o->type != OPT_UNSUPPORTED && !(o->flags & OPT_F_NOSHOW);
}

void opt_kv_free(struct job_kv *kv, size_t nr)
{
	size_t i;

	for (i = 0; kv && i < nr; i++) {
		free(kv[i].key);
		free(kv[i].val);
	}
	free(kv);
}

int opt_job_resolved(const struct job *j, struct job_kv **kv, size_t *nr)
{
	struct opt_iter it = { 0 };
	const struct opt_def *o;
	size_t tnr = 0, n = 0;
	struct job_kv *out;
	char buf[OPT_VAL_MAX];

	while (opt_next(&it))
		tnr++;
	out = calloc(tnr, sizeof(*out));
	if (!out)
		return -ENOMEM;
	memset(&it, 0, sizeof(it));
	while ((o = opt_next(&it)) != NULL) {
		if (!opt_listed(o) || opt_show(j, o, buf, sizeof(buf)))
			continue;
		out[n].key = strdup(o->name);
		out[n].val = strdup(buf);
		n++;
		if (!out[n - 1].key || !out[n - 1].val) {
			opt_kv_free(out, n);
			return -ENOMEM;
		}
	}
	*kv = out;
	*nr = n;
	return 0;
}

/* Append @s to the growing string *@line (length *@len); shell-quotes when @quote. */
static int opt_append(char **line, size_t *len, const char *s, int quote)
{
	size_t n = strlen(s), extra = 0, i;
	char *p, *q;

	if (quote)
		for (i = 0; i < n; i++)
			extra += s[i] == '\'' ? 4 : 0;
	p = realloc(*line, *len + n + extra + 3);
	if (!p)
		return -ENOMEM;
	*line = p;
	q = p + *len;
	if (quote)
		*q++ = '\'';
	for (i = 0; i < n; i++) {
		if (quote && s[i] == '\'') {
			memcpy(q, "'\\''", 4);
			q += 4;
		} else {
			*q++ = s[i];
		}
	}
	if (quote)
		*q++ = '\'';
	*q = '\0';
	*len = (size_t)(q - p);
	return 0;
}

/* True when @s needs shell quoting. */
static int opt_needs_quote(const char *s)
{
	if (!*s)
		return 1;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "_./:,%+-=@", *s))
			return 1;
	return 0;
}

/* Append " --name=value" (value quoted when needed, @suffix after it). */
static int opt_append_opt(char **line, size_t *len, const char *name, const char *val,
			  const char *suffix)
{
	char v[OPT_VAL_MAX + 8];

	snprintf(v, sizeof(v), "%s%s", val, suffix);
	if (opt_append(line, len, *len ? " --" : "--", 0) || opt_append(line, len, name, 0) ||
	    opt_append(line, len, "=", 0) || opt_append(line, len, v, opt_needs_quote(v)))
		return -ENOMEM;
	return 0;
}

int opt_job_cmdline(const struct job *j, char **line)
{
	struct opt_iter it = { 0 };
	const struct opt_def *o;
	size_t len = 0;
	char a[OPT_VAL_MAX], b[OPT_VAL_MAX];
	const char *suffix;
	struct job def;
	int ret = 0, unset_a, unset_b;

	*line = NULL;
	job_init(&def);
	ret = opt_append_opt(line, &len, "name", j->name, "");
	while (!ret && (o = opt_next(&it)) != NULL) {
		if (!opt_listed(o) || !strcmp(o->name, "name"))
			continue;
		unset_a = opt_show(j, o, a, sizeof(a));
		unset_b = opt_show(&def, o, b, sizeof(b));
		if (unset_a || (!unset_b && !strcmp(a, b)))
			continue;
		if (o->type == OPT_FLAG && !strcmp(a, "1")) {
			ret = opt_append(line, &len, " --", 0) || opt_append(line, &len, o->name, 0)
				      ? -ENOMEM : 0;
			continue;
		}
		/* a time stored in us re-parses as seconds unless the unit is written */
		suffix = o->type == OPT_TIME && o->unit_us != o->bare_us ? "us" : "";
		ret = opt_append_opt(line, &len, o->name, a, suffix);
	}
	job_free(&def);
	if (ret) {
		free(*line);
		*line = NULL;
	}
	return ret;
}

/* ---- help ------------------------------------------------------------ */

static const char *opt_type_text(const struct opt_def *o)
{
	switch (o->type) {
	case OPT_STR:
		return o->flags & OPT_F_OPTVAL ? "text (may be given bare)" : "text";
	case OPT_BOOL:
		return "boolean 0|1 (a value is required)";
	case OPT_FLAG:
		return "flag (bare, or 0|1)";
	case OPT_INT:
		return "integer (units k/m/g/t/p allowed)";
	case OPT_INT_DDIR:
		return "integer per direction read,write,trim (units k/m/g/t/p allowed)";
	case OPT_TIME:
		/* from bare_us, the unit the parser applies: never a fixed word
		 * (fio's thinktime and latency_* take microseconds, runtime seconds) */
		switch (o->bare_us) {
		case 1:
			return "time (bare number: microseconds; us/ms/s/m/h/d)";
		case 1000:
			return "time (bare number: milliseconds; us/ms/s/m/h/d)";
		case 1000000:
			return "time (bare number: seconds; us/ms/s/m/h/d)";
		}
		return "time (us/ms/s/m/h/d)";
	case OPT_CHOICE:
		return "one of the values below";
	case OPT_FUNC:
		return o->value_at ? "one of the values below" : "see the description";
	case OPT_UNSUPPORTED:
		break;
	}
	return "unsupported";
}

static void opt_help_one(FILE *f, const struct opt_def *o)
{
	char buf[OPT_VAL_MAX];
	struct job def;
	const char *sfx;
	size_t i;

	if (o->type == OPT_UNSUPPORTED) {
		fprintf(f, "%s: a fio option that iotrial does not support (refused)%s%s\n", o->name,
			o->help ? ": " : "", o->help ? o->help : "");
		return;
	}
	fprintf(f, "%s: %s\n", o->name, o->help ? o->help : "");
	if (engine_opt_owner(o, 0)) {
		opt_owners(o, buf, sizeof(buf));
		fprintf(f, "  engines: %s (refused under any other)\n", buf);
	}
	if (o->alias[0])
		fprintf(f, "  alias:   %s%s%s\n", o->alias[0], o->alias[1] ? ", " : "",
			o->alias[1] ? o->alias[1] : "");
	fprintf(f, "  type:    %s\n", opt_type_text(o));
	/* a time is stored in unit_us: written bare only when that is also the
	 * unit a bare number is read in (as --showcmd does) */
	sfx = o->type == OPT_TIME && o->unit_us != o->bare_us ? "us" : "";
	job_init(&def);
	if (!(o->flags & OPT_F_NOSHOW) && !opt_show(&def, o, buf, sizeof(buf)))
		fprintf(f, "  default: %s%s\n", buf, strcmp(buf, "0") ? sfx : "");
	job_free(&def);
	if ((o->type == OPT_INT || o->type == OPT_INT_DDIR || o->type == OPT_TIME) &&
	    (o->min || o->max))
		fprintf(f, "  range:   %llu%s..%llu%s\n", (unsigned long long)o->min, sfx,
			(unsigned long long)(o->max ? o->max : opt_width_max(o->width)), sfx);
	if (o->type == OPT_CHOICE) {
		fprintf(f, "  values: ");
		for (i = 0; o->choices[i].name; i++)
			fprintf(f, " %s", o->choices[i].name);
		fprintf(f, "\n");
	}
	if (o->value_at) {
		const char *v;

		fprintf(f, "  values: ");
		for (i = 0; (v = o->value_at(i)) != NULL; i++)
			fprintf(f, " %s", v);
		fprintf(f, "\n");
	}
}

int opt_cmdhelp(FILE *f, const char *name)
{
	struct opt_iter it = { 0 };
	const struct opt_def *o;
	size_t unsup = 0;

	if (name && !strcmp(name, "all")) {
		/* fio's --cmdhelp=all: every option described in full, so a
		 * script reads all of them from one run */
		while ((o = opt_next(&it)) != NULL) {
			if (o->type == OPT_UNSUPPORTED)
				continue;
			opt_help_one(f, o);
			fprintf(f, "\n");
		}
		return 0;
	}
	if (name) {
		o = opt_find(name);
		if (!o)
			return -ENOENT;
		opt_help_one(f, o);
		return 0;
	}
	while ((o = opt_next(&it)) != NULL) {
		if (o->type == OPT_UNSUPPORTED) {
			unsup++;
			continue;
		}
		fprintf(f, "%-28s %s\n", o->name, o->help ? o->help : "");
	}
	fprintf(f, "\n%zu further fio options are recognised and refused as unsupported.\n"
		"--cmdhelp=NAME describes one option, --cmdhelp=all every one.\n", unsup);
	return 0;
}
