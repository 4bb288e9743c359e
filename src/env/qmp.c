/*
 * qmp: QEMU's monitor protocol, the client and the strict readers (see
 * qmp.h).  The protocol is a line per JSON object: the greeting
 * {"QMP": {...}}, then replies {"return": ...} or {"error": {...}} to our
 * commands, with events {"event": ...} in between.
 */
#include "env/qmp.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int qmp_parse_line(const char *line, size_t len, int *kind, json_t **ret, struct err *e)
{
	json_error_t je;
	json_t *o, *v;

	*kind = 0;
	*ret = NULL;
	if (len > QMP_REPLY_MAX)
		return err_set(e, -EPROTO, EXIT_USAGE, "QMP: a reply of %zu bytes (at most %u)", len,
			       QMP_REPLY_MAX);
	o = json_loadb(line, len, JSON_REJECT_DUPLICATES, &je);
	if (!o)
		return err_set(e, -EPROTO, EXIT_USAGE, "QMP: not JSON: %s", je.text);
	if (!json_is_object(o)) {
		json_decref(o);
		return err_set(e, -EPROTO, EXIT_USAGE, "QMP: a reply that is not an object");
	}
	if (json_is_object(json_object_get(o, "QMP"))) {
		*kind = 'G';
	} else if (json_is_string(json_object_get(o, "event"))) {
		*kind = 'E';
	} else if ((v = json_object_get(o, "return"))) {
		*kind = 'R';
		*ret = json_incref(v);
	} else if (json_is_object(v = json_object_get(o, "error"))) {
		const char *d = json_string_value(json_object_get(v, "desc"));
		char safe[200];

		*kind = 'X';
		err_escape(safe, sizeof(safe), d ? d : "no description");
		err_set(e, -EREMOTEIO, EXIT_USAGE, "QMP: QEMU answered with an error: %s", safe);
	} else {
		json_decref(o);
		return err_set(e, -EPROTO, EXIT_USAGE, "QMP: an object that is neither a greeting, "
			       "an event, a return nor an error");
	}
	json_decref(o);
	return 0;
}

/* A counter: an integer >= 0, else -EPROTO naming @drive and @key. */
static int counter(const json_t *st, const char *key, const char *drive, uint64_t *out,
		   struct err *e)
{
	const json_t *v = json_object_get(st, key);

	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return err_set(e, -EPROTO, EXIT_USAGE, "QMP: query-blockstats: drive '%.100s': "
			       "\"%s\" is %s, not a count", drive, key,
			       !v ? "missing" : json_is_integer(v) ? "negative" : "not an integer");
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

/* The drive's name: "device" when set, else the qdev path, else the node name. */
static const char *drive_name(const json_t *d)
{
	static const char *const keys[] = { "device", "qdev", "node-name" };

	for (size_t k = 0; k < 3; k++) {
		const char *s = json_string_value(json_object_get(d, keys[k]));

		if (s && *s)
			return s;
	}
	return NULL;
}

int qmp_parse_blockstats(const json_t *ret, struct qmp_drive *v, size_t max, size_t *n,
			 struct err *e)
{
	size_t i;

	*n = 0;
	if (!json_is_array(ret))
		return err_set(e, -EPROTO, EXIT_USAGE, "QMP: query-blockstats returned no array");
	if (json_array_size(ret) > max)
		return err_set(e, -EPROTO, EXIT_USAGE, "QMP: query-blockstats returned %zu drives "
			       "(at most %zu)", json_array_size(ret), max);
	for (i = 0; i < json_array_size(ret); i++) {
		const json_t *d = json_array_get(ret, i), *st;
		struct qmp_drive *q = &v[*n];
		const char *name;
		char safe[128];

		if (!json_is_object(d))
			return err_set(e, -EPROTO, EXIT_USAGE, "QMP: query-blockstats: entry %zu is "
				       "not an object", i);
		name = drive_name(d);
		st = json_object_get(d, "stats");
		if (!name || !json_is_object(st))
			return err_set(e, -EPROTO, EXIT_USAGE, "QMP: query-blockstats: entry %zu has "
				       "no name or no \"stats\" object", i);
		memset(q, 0, sizeof(*q));
		q->virtual_size = q->actual_size = -1;
		err_escape(safe, sizeof(safe), name);
		snprintf(q->name, sizeof(q->name), "%s", safe);
		if (counter(st, "rd_operations", q->name, &q->rd_ops, e) ||
		    counter(st, "wr_operations", q->name, &q->wr_ops, e) ||
		    counter(st, "flush_operations", q->name, &q->flush_ops, e) ||
		    counter(st, "rd_bytes", q->name, &q->rd_bytes, e) ||
		    counter(st, "wr_bytes", q->name, &q->wr_bytes, e) ||
		    counter(st, "rd_total_time_ns", q->name, &q->rd_ns, e) ||
		    counter(st, "wr_total_time_ns", q->name, &q->wr_ns, e) ||
		    counter(st, "flush_total_time_ns", q->name, &q->flush_ns, e))
			return -EPROTO;
		(*n)++;
	}
	return 0;
}

int qmp_parse_block(const json_t *ret, struct qmp_drive *v, size_t n, struct err *e)
{
	if (!json_is_array(ret))
		return err_set(e, -EPROTO, EXIT_USAGE, "QMP: query-block returned no array");
	for (size_t i = 0; i < json_array_size(ret); i++) {
		const json_t *d = json_array_get(ret, i), *ins, *c, *img, *vs, *as;
		const char *name = json_is_object(d) ? drive_name(d) : NULL;
		char safe[128];

		if (!name)
			return err_set(e, -EPROTO, EXIT_USAGE, "QMP: query-block: entry %zu has no name", i);
		ins = json_object_get(d, "inserted");
		if (!ins)
			continue;	/* an empty CD drive */
		c = json_object_get(ins, "cache");
		img = json_object_get(ins, "image");
		if (!json_is_object(ins) || !json_is_object(c) ||
		    !json_is_boolean(json_object_get(c, "direct")) ||
		    !json_is_boolean(json_object_get(c, "writeback")))
			return err_set(e, -EPROTO, EXIT_USAGE, "QMP: query-block: drive '%.100s': no "
				       "\"cache\" object of booleans", name);
		err_escape(safe, sizeof(safe), name);
		for (size_t k = 0; k < n; k++) {
			if (strcmp(v[k].name, safe))
				continue;
			v[k].has_block = 1;
			v[k].cache_direct = json_is_true(json_object_get(c, "direct"));
			v[k].cache_writeback = json_is_true(json_object_get(c, "writeback"));
			vs = json_is_object(img) ? json_object_get(img, "virtual-size") : NULL;
			as = json_is_object(img) ? json_object_get(img, "actual-size") : NULL;
			v[k].virtual_size = json_is_integer(vs) && json_integer_value(vs) >= 0 ?
					    json_integer_value(vs) : -1;
			v[k].actual_size = json_is_integer(as) && json_integer_value(as) >= 0 ?
					   json_integer_value(as) : -1;
		}
	}
	return 0;
}

int qmp_parse_thread_ids(const json_t *ret, int *tids, size_t max, size_t *n, struct err *e)
{
	*n = 0;
	if (!json_is_array(ret))
		return err_set(e, -EPROTO, EXIT_USAGE, "QMP: a list of threads that is no array");
	if (json_array_size(ret) > max)
		return err_set(e, -EPROTO, EXIT_USAGE, "QMP: %zu threads listed (at most %zu)",
			       json_array_size(ret), max);
	for (size_t i = 0; i < json_array_size(ret); i++) {
		const json_t *t = json_object_get(json_array_get(ret, i), "thread-id");

		if (!json_is_integer(t) || json_integer_value(t) <= 0 || json_integer_value(t) > 0x7fffffff)
			return err_set(e, -EPROTO, EXIT_USAGE, "QMP: thread entry %zu has no \"thread-id\" "
				       "that is a process id", i);
		tids[(*n)++] = (int)json_integer_value(t);
	}
	return 0;
}

/* The next line from the peer into @line (a pointer into q->buf, NUL-terminated). */
static int read_line(struct qmp *q, char **line, size_t *len, struct err *e)
{
	int64_t deadline = now_ms() + q->timeout_ms;

	for (;;) {
		char *nl = q->len ? memchr(q->buf, '\n', q->len) : NULL;
		struct pollfd p = { .fd = q->fd, .events = POLLIN };
		int64_t left;
		ssize_t r;

		if (nl) {
			*nl = '\0';
			*line = q->buf;
			*len = (size_t)(nl - q->buf);
			return 0;
		}
		if (q->len >= QMP_REPLY_MAX)
			return err_set(e, -EMSGSIZE, EXIT_USAGE, "QMP %s: a reply longer than %u bytes",
				       q->path, QMP_REPLY_MAX);
		if (q->cap - q->len < 65536) {
			size_t cap = q->cap ? q->cap * 2 : 65536;
			char *b;

			if (cap > QMP_REPLY_MAX + 65536)
				cap = QMP_REPLY_MAX + 65536;
			b = realloc(q->buf, cap + 1);
			if (!b)
				return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
			q->buf = b;
			q->cap = cap;
		}
		left = deadline - now_ms();
		if (left <= 0 || poll(&p, 1, (int)left) == 0)
			return err_set(e, -ETIMEDOUT, EXIT_USAGE, "QMP %s: no reply within %d ms",
				       q->path, q->timeout_ms);
		r = read(q->fd, q->buf + q->len, q->cap - q->len);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r <= 0)
			return err_set(e, r < 0 ? -errno : -ECONNRESET, EXIT_USAGE,
				       "QMP %s: the connection closed%s%s", q->path, r < 0 ? ": " : "",
				       r < 0 ? strerror(errno) : " (QEMU gone?)");
		q->len += (size_t)r;
	}
}

/* Drop the line just returned by read_line. */
static void consume(struct qmp *q, size_t len)
{
	size_t used = len + 1;

	memmove(q->buf, q->buf + used, q->len - used);
	q->len -= used;
}

/* The next non-event object: its kind and return value. */
static int next_object(struct qmp *q, int *kind, json_t **ret, struct err *e)
{
	for (int events = 0; events < 10000; events++) {
		char *line = NULL;
		size_t len = 0;
		int rc;

		if ((rc = read_line(q, &line, &len, e)))
			return rc;
		rc = qmp_parse_line(line, len, kind, ret, e);
		consume(q, len);
		if (rc)
			return rc;
		if (*kind != 'E')
			return 0;
	}
	return err_set(e, -EPROTO, EXIT_USAGE, "QMP %s: events without end, no reply", q->path);
}

static int send_all(struct qmp *q, const char *s, struct err *e)
{
	size_t n = strlen(s), off = 0;

	while (off < n) {
		ssize_t w = send(q->fd, s + off, n - off, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return err_set(e, -errno, EXIT_USAGE, "QMP %s: cannot send: %s", q->path,
				       strerror(errno));
		off += (size_t)w;
	}
	return 0;
}

int qmp_call(struct qmp *q, const char *cmd, json_t **ret, struct err *e)
{
	char req[128];
	int kind, rc;

	*ret = NULL;
	snprintf(req, sizeof(req), "{\"execute\": \"%s\"}\n", cmd);
	if ((rc = send_all(q, req, e)) || (rc = next_object(q, &kind, ret, e)))
		return rc;
	if (kind == 'X')
		return -EREMOTEIO;
	if (kind != 'R') {
		json_decref(*ret);
		*ret = NULL;
		return err_set(e, -EPROTO, EXIT_USAGE, "QMP %s: a second greeting, not a reply to %s",
			       q->path, cmd);
	}
	return 0;
}

int qmp_open(struct qmp *q, const char *path, int timeout_ms, struct err *e)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct ucred cr;
	socklen_t crl = sizeof(cr);
	json_t *r = NULL;
	int kind, rc;

	memset(q, 0, sizeof(*q));
	q->fd = -1;
	q->timeout_ms = timeout_ms;
	if (strlen(path) >= sizeof(sa.sun_path))
		return err_set(e, -ENAMETOOLONG, EXIT_USAGE, "--host-qmp=%.200s: a socket path "
			       "longer than %zu bytes", path, sizeof(sa.sun_path) - 1);
	snprintf(q->path, sizeof(q->path), "%s", path);
	memcpy(sa.sun_path, path, strlen(path) + 1);
	q->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (q->fd < 0)
		return err_set(e, -errno, EXIT_INTERNAL, "QMP: socket: %s", strerror(errno));
	if (connect(q->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		rc = -errno;
		err_set(e, rc, EXIT_USAGE, "QMP %s: cannot connect: %s%s", path, strerror(errno),
			rc == -ECONNREFUSED ? " (no QEMU listening there)" : "");
		qmp_close(q);
		return rc;
	}
	if (!getsockopt(q->fd, SOL_SOCKET, SO_PEERCRED, &cr, &crl))
		q->pid = cr.pid;
	if ((rc = next_object(q, &kind, &r, e)) || kind != 'G') {
		json_decref(r);
		if (!rc)
			rc = err_set(e, -EPROTO, EXIT_USAGE, "QMP %s: no greeting: not a QMP socket?", path);
		qmp_close(q);
		return rc;
	}
	if ((rc = qmp_call(q, "qmp_capabilities", &r, e))) {
		qmp_close(q);
		return rc;
	}
	json_decref(r);
	return 0;
}

void qmp_close(struct qmp *q)
{
	if (q->fd >= 0)
		close(q->fd);
	q->fd = -1;
	free(q->buf);
	q->buf = NULL;
	q->len = q->cap = 0;
}
