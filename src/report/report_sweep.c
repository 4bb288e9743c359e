/*
 * report_sweep: a sweep's report from its document (report_sweep.h).
 */
#include "report/report_sweep.h"

#include <errno.h>
#include <stdlib.h>	/* calloc, free */
#include <string.h>
#include "report/report_html_sweep.h"
#include "result/resultread.h"	/* resultread_free: the compared documents */
#include "trial/compare.h"
#include "trial/sweep_ab.h"

static int is_ab(const json_t *doc)
{
	return json_is_object(doc) && sweep_doc_is(json_object_get(doc, "a")) &&
	       sweep_doc_is(json_object_get(doc, "b"));
}

int report_sweep_is(const json_t *doc)
{
	return sweep_doc_is(doc) || is_ab(doc);
}

int report_sweep_ab_text(FILE *f, const struct sweep_result *r, const char *const spec[2],
			 const struct compare_report *rep)
{
	for (int k = 0; k < 2; k++) {
		fprintf(f, "%sside %c (%s), in %s:\n", k ? "\n" : "", "AB"[k], spec[k] ? spec[k] : "?",
			r[k].dir);
		if (sweep_write_text(&r[k], f))
			return -EIO;
	}
	fputc('\n', f);
	return compare_write_text(rep, f) || ferror(f) ? -EIO : 0;
}

/* An ab sweep's document: both sweeps read back, compared again, written. */
static int ab_write(FILE *f, const json_t *doc, const char *name, int html, struct sweep_result *r,
		    struct err *e)
{
	const json_t *side[2] = { json_object_get(doc, "a"), json_object_get(doc, "b") };
	const char *spec[2];
	struct resultread *rr[2] = { NULL, NULL };
	struct compare_report rep;
	struct compare_opts co;
	json_t *cmp = NULL;
	int ret = 0;

	for (int k = 0; k < 2 && !ret; k++) {
		char part[4200];

		snprintf(part, sizeof(part), "%s (side %c)", name, "AB"[k]);
		spec[k] = json_string_value(json_object_get(side[k], "options"));
		ret = sweep_from_json(side[k], part, &r[k], e);
	}
	if (ret)
		return ret;
	compare_opts_init(&co);	/* what the ab sweep compared them with */
	ret = sweep_ab_compare(r, &co, rr, &rep, e);
	if (ret)
		return ret;
	if (!html) {
		ret = report_sweep_ab_text(f, r, spec, &rep);
	} else {
		static const char *const names[] = { "A", "B" };

		cmp = compare_json(&rep);
		ret = cmp ? report_html_sweep(f, side, names, 2, cmp) : -ENOMEM;
		json_decref(cmp);
	}
	compare_report_free(&rep);
	resultread_free(rr[0]);	/* after the report, which points into them */
	resultread_free(rr[1]);
	if (ret == -ENOMEM)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	return ret ? err_set(e, -EIO, EXIT_OUTPUT, "report: writing the report of %s failed", name) : 0;
}

int report_sweep_write(FILE *f, const json_t *doc, const char *name, int html, struct err *e)
{
	struct sweep_result *r = calloc(2, sizeof(*r));
	int ret;

	if (!r)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory");
	if (is_ab(doc)) {
		ret = ab_write(f, doc, name, html, r, e);
	} else {
		static const char *const one[] = { "sweep" };

		/* the whole document is read (and refused) before anything is written */
		ret = sweep_from_json(doc, name, &r[0], e);
		if (!ret && (html ? report_html_sweep(f, &doc, one, 1, NULL) : sweep_write_text(&r[0], f)))
			ret = err_set(e, -EIO, EXIT_OUTPUT, "report: writing the report of %s failed",
				      name);
	}
	sweep_result_clear(&r[0]);
	sweep_result_clear(&r[1]);
	free(r);
	return ret;
}
