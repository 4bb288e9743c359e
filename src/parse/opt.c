/*
 * opt: lookup, setting and printing of options through the table in
 * opt_table.c (see opt.h).  The generic types (string, bool, flag, integer,
 * per-direction integer, time, choice) are read and shown here; the table's
 * callbacks handle the rest.  Cross-field checks are in opt_validate.c.
 */
#include "parse/opt.h"
#include "lib/suggest.h"	/* did you mean */

#include <errno.h>	/* EINVAL, ERANGE, ENOMEM */
#include <stdlib.h>	/* malloc, realloc, free */
#include <string.h>	/* strcmp, strlen, memcpy, strdup */
#include <strings.h>	/* strcasecmp */
#include <stdio.h>	/* snprintf */

#define OPT_VAL_MAX 2048	/* a resolved value as text */

const struct opt_def *opt_find(const char *name)
{
	size_t nr, i;
	const struct opt_def *t = opt_table(&nr);

	if (!name)
		return NULL;
	for (i = 0; i < nr; i++)
		if (!strcmp(t[i].name, name) || (t[i].alias[0] && !strcmp(t[i].alias[0], name)) ||
		    (t[i].alias[1] && !strcmp(t[i].alias[1], name)))
			return &t[i];
	return NULL;
}

/* suggest_nearest's list: the supported options' names, in table order. */
static const char *opt_name_at(size_t i, const void *ctx)
{
	size_t nr;
	const struct opt_def *t = opt_table(&nr);

	(void)ctx;
	while (i < nr && t[i].type == OPT_UNSUPPORTED)
		i++;	/* an unsupported row gives the next one: a name twice is harmless */
	return i < nr ? t[i].name : NULL;
}

/* The supported option closest to @name within 2 edits, or NULL. */
static const char *opt_suggest(const char *name)
{
	return suggest_nearest(name, opt_name_at, NULL);
}

static const char *opt_value_at(size_t i, const void *ctx)
{
	return ((const struct opt_def *)ctx)->value_at(i);
}

const char *opt_suggest_value(const struct opt_def *o, const char *val)
{
	return o && o->value_at ? suggest_nearest(val, opt_value_at, o) : NULL;
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
	ret = opt_parse_pct2(j, o, val, &c, e);
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

/* Write @o's resolved value in @j to @buf; returns 1 when unset. */
static int opt_show(const struct job *j, const struct opt_def *o, char *buf, size_t len)
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

/* True when the space-separated list @list has the word @w. */
static int opt_word_in(const char *list, const char *w)
{
	size_t n = strlen(w);
	const char *p = list;

	while ((p = strstr(p, w))) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
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
 * fio checks an engine's option against the engine the section ends with,
 * where it is set: a job's own donorname under libaio is refused, while one
 * inherited from a [global] that had ioengine=e4defrag is dropped when the
 * job switches engine (opt_engine_drop_inherited).
 */
int opt_engine_owned_check(const struct job *j, struct err *e)
{
	size_t nr, i;
	const struct opt_def *t = opt_table(&nr);
	char a[OPT_VAL_MAX], b[OPT_VAL_MAX];
	const char *eng = j->ioengine ? j->ioengine : JOB_IOENGINE_DEFAULT;
	struct job def;
	int ret = 0, unset_a, unset_b;

	job_init(&def);
	for (i = 0; i < nr && !ret; i++) {
		if (!t[i].engines || t[i].type == OPT_UNSUPPORTED || opt_word_in(t[i].engines, eng) ||
		    !opt_own(j, t[i].name))
			continue;
		unset_a = opt_show(j, &t[i], a, sizeof(a));
		unset_b = opt_show(&def, &t[i], b, sizeof(b));
		if (unset_a || (!unset_b && !strcmp(a, b)))
			continue;
		if (!j->name[0])	/* a global section: jobs are not named yet */
			ret = err_set(e, -EINVAL, EXIT_USAGE, "job 'global'%s%s%s: option '%s' belongs to "
				      "ioengine %s, not %s", j->origin[0] ? " (" : "", j->origin,
				      j->origin[0] ? ")" : "", t[i].name, t[i].engines, eng);
		else
			ret = job_err(e, j, "option '%s' belongs to ioengine %s, not %s", t[i].name,
				      t[i].engines, eng);
	}
	job_free(&def);
	return ret;
}

void opt_engine_drop_inherited(struct job *j)
{
	size_t nr, i;
	const struct opt_def *t = opt_table(&nr);
	const char *eng = j->ioengine ? j->ioengine : JOB_IOENGINE_DEFAULT;
	struct job def;

	job_init(&def);
	for (i = 0; i < nr; i++)
		/* rows without storage of their own (cmdprio's) stay: their engines read them */
		if (t[i].engines && t[i].type != OPT_UNSUPPORTED && t[i].width &&
		    !opt_word_in(t[i].engines, eng) && !opt_own(j, t[i].name))
			memcpy((char *)j + t[i].off, (const char *)&def + t[i].off, t[i].width);
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
	size_t tnr, i, n = 0;
	const struct opt_def *t = opt_table(&tnr);
	struct job_kv *out = calloc(tnr, sizeof(*out));
	char buf[OPT_VAL_MAX];

	if (!out)
		return -ENOMEM;
	for (i = 0; i < tnr; i++) {
		if (!opt_listed(&t[i]) || opt_show(j, &t[i], buf, sizeof(buf)))
			continue;
		out[n].key = strdup(t[i].name);
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
	size_t tnr, i, len = 0;
	const struct opt_def *t = opt_table(&tnr);
	char a[OPT_VAL_MAX], b[OPT_VAL_MAX];
	const char *suffix;
	struct job def;
	int ret = 0, unset_a, unset_b;

	*line = NULL;
	job_init(&def);
	ret = opt_append_opt(line, &len, "name", j->name, "");
	for (i = 0; i < tnr && !ret; i++) {
		if (!opt_listed(&t[i]) || !strcmp(t[i].name, "name"))
			continue;
		unset_a = opt_show(j, &t[i], a, sizeof(a));
		unset_b = opt_show(&def, &t[i], b, sizeof(b));
		if (unset_a || (!unset_b && !strcmp(a, b)))
			continue;
		if (t[i].type == OPT_FLAG && !strcmp(a, "1")) {
			ret = opt_append(line, &len, " --", 0) || opt_append(line, &len, t[i].name, 0)
				      ? -ENOMEM : 0;
			continue;
		}
		/* a time stored in us re-parses as seconds unless the unit is written */
		suffix = t[i].type == OPT_TIME && t[i].unit_us != t[i].bare_us ? "us" : "";
		ret = opt_append_opt(line, &len, t[i].name, a, suffix);
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
	if (o->engines)
		fprintf(f, "  engines: %s (refused under any other)\n", o->engines);
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
	size_t nr, i, unsup = 0;
	const struct opt_def *t = opt_table(&nr);
	const struct opt_def *o;

	if (name && !strcmp(name, "all")) {
		/* fio's --cmdhelp=all: every option described in full, so a
		 * script reads all of them from one run */
		for (i = 0; i < nr; i++) {
			if (t[i].type == OPT_UNSUPPORTED)
				continue;
			opt_help_one(f, &t[i]);
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
	for (i = 0; i < nr; i++) {
		if (t[i].type == OPT_UNSUPPORTED) {
			unsup++;
			continue;
		}
		fprintf(f, "%-28s %s\n", t[i].name, t[i].help ? t[i].help : "");
	}
	fprintf(f, "\n%zu further fio options are recognised and refused as unsupported.\n"
		"--cmdhelp=NAME describes one option, --cmdhelp=all every one.\n", unsup);
	return 0;
}
