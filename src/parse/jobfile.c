/*
 * jobfile: the INI reader for fio job files (rules in jobfile.h).
 *
 * A file is read whole (JOBFILE_SIZE_MAX at most), its bytes are checked
 * (text only: no NUL, no control characters, valid UTF-8), then it is parsed
 * line by line.  An include is the same walk over another file's lines with
 * the current section kept; the stack of real paths catches loops.
 */
#include "parse/jobfile.h"
#include "lib/readfile.h"	/* readfile_all */

#include <errno.h>	/* ENOENT, EINVAL, ENOMEM, ELOOP */
#include <limits.h>	/* PATH_MAX */
#include <stdarg.h>	/* va_list */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* malloc, realloc, free, getenv, realpath */
#include <string.h>	/* strlen, strchr, memcpy, strerror */
#include "lib/mpienv.h"	/* ${RANK}, ${NRANKS} */
#include "parse/opt.h"
#include "lib/vec.h"

struct jf {
	const struct job *defaults;
	char *const *sections;
	size_t sections_nr;
	struct jobfile_out *out;
	struct err *e;
	struct job global;	/* the template: defaults plus [global]s so far */
	struct job job;		/* the job section being read */
	struct job *cur;	/* &global, &job or NULL before the first section */
	int nr_sections;	/* job sections seen in the top-level file */
	char *stack[JOBFILE_INCLUDE_DEPTH];	/* real paths of the files being read */
	int depth;
};

/* Fill the error for @file:@line. */
static int jf_fail(struct jf *p, int code, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int jf_fail(struct jf *p, int code, const char *file, int line, const char *fmt, ...)
{
	char why[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (line > 0)
		return err_set(p->e, code, EXIT_USAGE, "%s (%s:%d)", why, file, line);
	return err_set(p->e, code, EXIT_USAGE, "%s", why);
}

/* Length of the valid UTF-8 sequence at @s (of @n bytes), 0 if invalid. */
static size_t jf_utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* overlong 3/4-byte forms, surrogates, above U+10FFFF */
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] >= 0xa0) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] >= 0x90))
		return 0;
	return len;
}

/* Refuse binary content: NUL, control characters, invalid UTF-8. */
static int jf_check_bytes(struct jf *p, const char *name, const char *buf, size_t len)
{
	const unsigned char *s = (const unsigned char *)buf;
	size_t i = 0, n;
	int line = 1;

	while (i < len) {
		if (s[i] == '\n') {
			line++;
			i++;
			continue;
		}
		if (s[i] == 0)
			return jf_fail(p, -EINVAL, name, line, "binary data (a NUL byte) in job file");
		if (s[i] < 0x20 && s[i] != '\t' && s[i] != '\r')
			return jf_fail(p, -EINVAL, name, line, "binary data (control byte 0x%02x) in job file",
				       s[i]);
		if (s[i] == 0x7f)
			return jf_fail(p, -EINVAL, name, line, "binary data (byte 0x7f) in job file");
		n = jf_utf8_len(s + i, len - i);
		if (!n)
			return jf_fail(p, -EINVAL, name, line, "binary data (invalid UTF-8 byte 0x%02x) in job file",
				       s[i]);
		i += n;
	}
	return 0;
}

/* Replace ${VAR} by its value (empty if unset) into @dst of @cap bytes. */
static int jf_expand(struct jf *p, const char *src, char *dst, size_t cap, const char *file,
		     int line)
{
	size_t n = 0, vlen;
	const char *end, *val;
	char var[256], num[16];

	while (*src) {
		if (src[0] == '$' && src[1] == '{') {
			end = strchr(src + 2, '}');
			if (!end)
				return jf_fail(p, -EINVAL, file, line, "unterminated ${ in '%.60s'", src);
			vlen = (size_t)(end - src - 2);
			if (!vlen || vlen >= sizeof(var))
				return jf_fail(p, -EINVAL, file, line, "bad variable name in '%.60s'", src);
			memcpy(var, src + 2, vlen);
			var[vlen] = '\0';
			/* ${RANK} and ${NRANKS}: this process's MPI rank and the
			 * number of ranks (0 and 1 outside MPI), before the env */
			if (!strcmp(var, "RANK") || !strcmp(var, "NRANKS")) {
				unsigned rk, nr;

				mpienv_rank(&rk, &nr);
				snprintf(num, sizeof(num), "%u", var[0] == 'R' ? rk : nr);
				val = num;
			} else {
				val = getenv(var);
			}
			val = val ? val : "";
			vlen = strlen(val);
			if (n + vlen >= cap)
				return jf_fail(p, -EINVAL, file, line, "line too long after expanding ${%s}", var);
			memcpy(dst + n, val, vlen);
			n += vlen;
			src = end + 1;
			continue;
		}
		if (n + 1 >= cap)
			return jf_fail(p, -EINVAL, file, line, "line too long (more than %d bytes)",
				       JOBFILE_LINE_MAX);
		dst[n++] = *src++;
	}
	dst[n] = '\0';
	return 0;
}

/* Strip leading and trailing blanks in place; returns the new start. */
static char *jf_trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

static int jf_selected(const struct jf *p, const char *name)
{
	size_t i;

	if (!p->sections_nr)
		return 1;
	for (i = 0; i < p->sections_nr; i++)
		if (!strcmp(p->sections[i], name))
			return 1;
	return 0;
}

/* The job being read is complete: keep it (if selected) or drop it. */
static int jf_finish_job(struct jf *p)
{
	struct job *n;

	if (p->cur == &p->global)	/* fio checks a section's engine options at its end */
		return opt_engine_owned_check(&p->global, p->e);
	if (p->cur != &p->job)
		return 0;
	p->cur = NULL;
	if (!jf_selected(p, p->job.name)) {
		struct jobfile_out *o = p->out;
		char *name = strdup(p->job.name);

		job_free(&p->job);
		if (!name || vec_grow((void **)&o->skipped, &o->skipped_cap, o->skipped_nr + 1,
				      sizeof(*o->skipped), 8)) {
			free(name);
			return err_set(p->e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		}
		o->skipped[o->skipped_nr++] = name;
		return 0;
	}
	if (p->out->jobs_nr >= JOBFILE_JOBS_MAX) {
		err_set(p->e, -E2BIG, EXIT_USAGE, "%s: job '%s': more than %d jobs (the limit)",
			p->job.origin, p->job.name, JOBFILE_JOBS_MAX);
		job_free(&p->job);
		return -E2BIG;
	}
	if (vec_grow((void **)&p->out->jobs, &p->out->jobs_cap, p->out->jobs_nr + 1,
		     sizeof(*p->out->jobs), 16)) {
		job_free(&p->job);
		return err_set(p->e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	}
	n = p->out->jobs;
	n[p->out->jobs_nr++] = p->job;	/* ownership moves to the array */
	memset(&p->job, 0, sizeof(p->job));
	return 0;
}

static int jf_section(struct jf *p, char *s, const char *file, int line)
{
	char *end = strchr(s, ']'), *name;
	int ret;

	if (p->depth > 1)
		return jf_fail(p, -EINVAL, file, line, "section header in an included file");
	if (!end)
		return jf_fail(p, -EINVAL, file, line, "unterminated section header '%.60s'", s);
	if (*jf_trim(end + 1))
		return jf_fail(p, -EINVAL, file, line, "text after section header '%.60s'", s);
	*end = '\0';
	name = jf_trim(s + 1);
	if (!*name)
		return jf_fail(p, -EINVAL, file, line, "empty section name");
	if (strlen(name) >= JOB_NAME_MAX)
		return jf_fail(p, -EINVAL, file, line, "section name longer than %d characters",
			       JOB_NAME_MAX - 1);
	ret = jf_finish_job(p);
	if (ret)
		return ret;
	if (!strcmp(name, "global")) {
		p->cur = &p->global;
		snprintf(p->global.origin, sizeof(p->global.origin), "%s:%d", file, line);
		return 0;
	}
	if (job_copy(&p->job, &p->global))
		return err_set(p->e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	job_kv_clear(&p->job);	/* "job options" are the job's own */
	snprintf(p->job.name, sizeof(p->job.name), "%s", name);
	snprintf(p->job.origin, sizeof(p->job.origin), "%s:%d", file, line);
	p->cur = &p->job;
	p->nr_sections++;
	return 0;
}

static int jf_file(struct jf *p, const char *path, const char *from, int from_line);

static int jf_include(struct jf *p, char *arg, const char *file, int line)
{
	char path[PATH_MAX];
	const char *slash = strrchr(file, '/');

	arg = jf_trim(arg);
	if (!*arg)
		return jf_fail(p, -EINVAL, file, line, "include needs a file name");
	if (!p->cur)
		return jf_fail(p, -EINVAL, file, line, "include outside a section");
	if (arg[0] == '/' || !slash)
		snprintf(path, sizeof(path), "%s", arg);
	else if ((size_t)snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - file), file, arg) >=
		 sizeof(path))
		return jf_fail(p, -ENAMETOOLONG, file, line, "include path too long");
	return jf_file(p, path, file, line);
}

static int jf_option(struct jf *p, char *s, const char *file, int line)
{
	char *eq = strchr(s, '='), *key = s, *val = NULL, where[PATH_MAX + 16];

	if (eq) {
		*eq = '\0';
		val = jf_trim(eq + 1);
	}
	key = jf_trim(key);
	if (!*key)
		return jf_fail(p, -EINVAL, file, line, "option without a name");
	if (!p->cur)
		return jf_fail(p, -EINVAL, file, line, "option '%s' outside a section", key);
	snprintf(where, sizeof(where), "%s:%d", file, line);
	return opt_set(p->cur, key, val, where, p->e);
}

static int jf_line(struct jf *p, char *raw, const char *file, int line)
{
	char buf[JOBFILE_LINE_MAX + 1], *s, *c;
	int ret;

	for (c = raw; *c && *c != ';' && *c != '#'; c++)
		;
	*c = '\0';	/* fio: a comment may start anywhere */
	ret = jf_expand(p, raw, buf, sizeof(buf), file, line);
	if (ret)
		return ret;
	s = jf_trim(buf);
	if (!*s)
		return 0;
	if (*s == '[')
		return jf_section(p, s, file, line);
	if (!strncmp(s, "include", 7) && (s[7] == ' ' || s[7] == '\t'))
		return jf_include(p, s + 8, file, line);
	return jf_option(p, s, file, line);
}

/* Walk the lines of @buf (checked text). */
static int jf_lines(struct jf *p, char *buf, size_t len, const char *file)
{
	char *s = buf, *nl, *end = buf + len;
	int line = 0, ret;

	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		s += 3;	/* a UTF-8 byte order mark */
	while (s < end) {
		line++;
		nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			nl = end;
		*nl = '\0';
		if (nl - s > JOBFILE_LINE_MAX)
			return jf_fail(p, -EINVAL, file, line, "line too long (more than %d bytes)",
				       JOBFILE_LINE_MAX);
		ret = jf_line(p, s, file, line);
		if (ret)
			return ret;
		s = nl + 1;
	}
	return 0;
}

/* Read @path whole into a NUL-terminated buffer. */
static int jf_read(struct jf *p, const char *path, const char *from, int from_line,
		   char **buf, size_t *len)
{
	int ret = readfile_all(path, JOBFILE_SIZE_MAX, buf, len);

	if (ret == -ENOENT)
		return jf_fail(p, -ENOENT, from, from_line, "%s '%s' not found",
			       from ? "included file" : "job file", path);
	if (ret == -EFBIG || ret == -ENOMEM)
		return jf_fail(p, -EFBIG, from, from_line, "job file '%s' is too large (or out of memory)",
			       path);
	if (ret)
		return jf_fail(p, ret, from, from_line, "cannot read %s '%s': %s",
			       from ? "included file" : "job file", path, strerror(-ret));
	return 0;
}

/* Read and parse one file; @from/@from_line name the include line (or NULL). */
static int jf_file(struct jf *p, const char *path, const char *from, int from_line)
{
	char real[PATH_MAX], *buf = NULL;
	size_t len = 0;
	int i, ret;

	if (p->depth >= JOBFILE_INCLUDE_DEPTH)
		return jf_fail(p, -ELOOP, from, from_line, "includes nested more than %d deep",
			       JOBFILE_INCLUDE_DEPTH);
	ret = jf_read(p, path, from, from_line, &buf, &len);
	if (ret)
		return ret;
	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	for (i = 0; i < p->depth; i++) {
		if (p->stack[i] && !strcmp(p->stack[i], real)) {
			free(buf);
			return jf_fail(p, -ELOOP, from, from_line, "include loop: '%s' is already being read",
				       path);
		}
	}
	p->stack[p->depth] = strdup(real);
	if (!p->stack[p->depth]) {
		free(buf);
		return err_set(p->e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	}
	p->depth++;
	ret = jf_check_bytes(p, path, buf, len);
	if (!ret)
		ret = jf_lines(p, buf, len, path);
	p->depth--;
	free(p->stack[p->depth]);
	free(buf);
	return ret;
}

/* Move the [global] options typed in this file to out->globals. */
static int jf_take_globals(struct jf *p)
{
	size_t i;

	if (!p->global.opts_nr)
		return 0;
	if (vec_grow((void **)&p->out->globals, &p->out->globals_cap,
		     p->out->globals_nr + p->global.opts_nr, sizeof(*p->out->globals), 16))
		return err_set(p->e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	for (i = 0; i < p->global.opts_nr; i++)
		p->out->globals[p->out->globals_nr++] = p->global.opts[i];
	free(p->global.opts);
	p->global.opts = NULL;
	p->global.opts_nr = 0;
	return 0;
}

/* Parse file @name, or @buf when @is_buf, then collect jobs and globals. */
static int jf_run(struct jf *p, const char *name, const char *buf, size_t len, int is_buf)
{
	char *copy;
	int ret;

	if (job_copy(&p->global, p->defaults))
		return err_set(p->e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	job_kv_clear(&p->global);
	if (is_buf) {
		copy = malloc(len + 1);
		ret = copy ? 0 : err_set(p->e, -ENOMEM, EXIT_INTERNAL, "out of memory");
		if (!ret) {
			memcpy(copy, buf, len);
			copy[len] = '\0';
			p->depth = 1;
			p->stack[0] = realpath(name, NULL);
			if (!p->stack[0])
				p->stack[0] = strdup(name);
			ret = jf_check_bytes(p, name, copy, len);
			if (!ret)
				ret = jf_lines(p, copy, len, name);
			free(p->stack[0]);
			free(copy);
		}
	} else {
		ret = jf_file(p, name, NULL, 0);
	}
	if (!ret)
		ret = jf_finish_job(p);
	if (!ret && !p->nr_sections)
		ret = jf_fail(p, -EINVAL, NULL, 0, "job file '%s' defines no job", name);
	if (!ret)
		ret = jf_take_globals(p);
	if (p->cur == &p->job)
		job_free(&p->job);
	job_free(&p->global);
	return ret;
}

int jobfile_parse(const char *path, const struct job *defaults, char *const *sections,
		  size_t sections_nr, struct jobfile_out *out, struct err *e)
{
	struct jf p = { .defaults = defaults, .sections = sections, .sections_nr = sections_nr,
			.out = out, .e = e };

	return jf_run(&p, path, NULL, 0, 0);
}

int jobfile_parse_buf(const char *buf, size_t len, const char *name,
		      const struct job *defaults, char *const *sections, size_t sections_nr,
		      struct jobfile_out *out, struct err *e)
{
	struct jf p = { .defaults = defaults, .sections = sections, .sections_nr = sections_nr,
			.out = out, .e = e };

	return jf_run(&p, name, buf, len, 1);
}

void jobfile_out_free(struct jobfile_out *out)
{
	size_t i;

	for (i = 0; i < out->jobs_nr; i++)
		job_free(&out->jobs[i]);
	free(out->jobs);
	for (i = 0; i < out->globals_nr; i++) {
		free(out->globals[i].key);
		free(out->globals[i].val);
	}
	free(out->globals);
	vec_free_strings(out->skipped, out->skipped_nr);
	memset(out, 0, sizeof(*out));
}
