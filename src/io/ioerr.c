/*
 * ioerr: continue_on_error and ignore_error (see ioerr.h).
 */
#include "io/ioerr.h"

#include <errno.h>	/* EIO, EILSEQ, EINVAL */
#include <stdint.h>	/* uint64_t */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* strtoul */
#include <string.h>	/* strcmp, strerrorname_np */
#include "model/job.h"
#include "model/num.h"
#include "model/opt_def.h"

/* fio's "non-fatal" errors when a class has no ignore_error list */
static const int ioerr_default[] = { EIO, EILSEQ };

int ioerr_class(unsigned ddir)
{
	return ddir == DDIR_READ ? IOERR_READ : IOERR_WRITE;
}

int ioerr_nonfatal(const struct ioerr_cfg *c, int cls, int err)
{
	unsigned i;

	if (cls < 0 || cls >= IOERR_NR || !(c->coe & (1u << cls)))
		return 0;
	if (!c->nr[cls]) {
		for (i = 0; i < sizeof(ioerr_default) / sizeof(ioerr_default[0]); i++)
			if (ioerr_default[i] == err)
				return 1;
		return 0;
	}
	for (i = 0; i < c->nr[cls]; i++)
		if (c->list[cls][i] == err)
			return 1;
	return 0;
}

static const struct { const char *name; unsigned mask; } coe_names[] = {
	{ "none", 0 }, { "0", 0 },
	{ "read", 1u << IOERR_READ }, { "write", 1u << IOERR_WRITE },
	{ "io", (1u << IOERR_READ) | (1u << IOERR_WRITE) },
	{ "verify", 1u << IOERR_VERIFY },
	{ "all", 7 }, { "1", 7 },
};

int ioerr_parse_coe(struct job *j, const struct opt_def *o, const char *val,
		    const struct num_ctx *c, struct err *e)
{
	size_t i;

	(void)o;
	for (i = 0; i < sizeof(coe_names) / sizeof(coe_names[0]); i++)
		if (!strcmp(coe_names[i].name, val)) {
			j->ioerr.coe = coe_names[i].mask;
			return 0;
		}
	return num_error(e, c, -EINVAL, val, "not one of none, read, write, io, verify, all, 0, 1");
}

int ioerr_show_coe(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	size_t i;

	(void)o;
	for (i = 0; i < sizeof(coe_names) / sizeof(coe_names[0]); i++)
		if (coe_names[i].mask == j->ioerr.coe)
			break;
	snprintf(buf, len, "%s", i < sizeof(coe_names) / sizeof(coe_names[0]) ? coe_names[i].name : "all");
	return 0;
}

/* One errno: a number, or a symbolic name such as ENOSPC.  0 if unknown. */
static int ioerr_errno(const char *s)
{
	char *end;
	unsigned long v;
	int i;

	if (*s >= '0' && *s <= '9') {
		v = strtoul(s, &end, 10);
		return *end || !v || v > 4095 ? 0 : (int)v;
	}
	for (i = 1; i < 4096; i++) {
		const char *n = strerrorname_np(i);

		if (n && !strcmp(n, s))
			return i;
	}
	return 0;
}

int ioerr_parse_ignore(struct job *j, const struct opt_def *o, const char *val,
		       const struct num_ctx *c, struct err *e)
{
	struct ioerr_cfg cfg = j->ioerr;
	char buf[1024], item[64];
	const char *p;
	int cls = 0;

	(void)o;
	if (strlen(val) >= sizeof(buf))
		return num_error(e, c, -EINVAL, val, "too long");
	memset(cfg.nr, 0, sizeof(cfg.nr));
	for (p = val; ; ) {
		size_t n = strcspn(p, ",:");
		int v;

		if (n >= sizeof(item))
			return num_error(e, c, -EINVAL, val, "an error name is too long");
		if (n) {
			memcpy(item, p, n);
			item[n] = '\0';
			v = ioerr_errno(item);
			if (!v)
				return num_error(e, c, -EINVAL, val,
						 "'%s' is not an errno name (ENOSPC) or number", item);
			if (cfg.nr[cls] == IOERR_LIST_MAX)
				return num_error(e, c, -EINVAL, val, "more than %d errors in one list",
						 IOERR_LIST_MAX);
			cfg.list[cls][cfg.nr[cls]++] = v;
		}
		p += n;
		if (!*p)
			break;
		if (*p == ',' && ++cls == IOERR_NR)
			return num_error(e, c, -EINVAL, val, "three lists at most (read,write,verify)");
		p++;
	}
	j->ioerr = cfg;
	return 0;
}

int ioerr_show_ignore(const struct job *j, const struct opt_def *o, char *buf, size_t len)
{
	size_t pos = 0;
	unsigned i;
	int cls, n;

	(void)o;
	if (!j->ioerr.nr[0] && !j->ioerr.nr[1] && !j->ioerr.nr[2])
		return 1;
	buf[0] = '\0';
	for (cls = 0; cls < IOERR_NR && pos < len; cls++) {
		for (i = 0; i < j->ioerr.nr[cls] && pos < len; i++) {
			const char *name = strerrorname_np(j->ioerr.list[cls][i]);

			n = name ? snprintf(buf + pos, len - pos, "%s%s", i ? ":" : "", name)
				 : snprintf(buf + pos, len - pos, "%s%d", i ? ":" : "", j->ioerr.list[cls][i]);
			if (n > 0)
				pos += (size_t)n;
		}
		if (cls + 1 < IOERR_NR && pos < len) {
			n = snprintf(buf + pos, len - pos, ",");
			if (n > 0)
				pos += (size_t)n;
		}
	}
	return 0;
}
