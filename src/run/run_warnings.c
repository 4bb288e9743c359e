/*
 * run_warnings: a fresh run's warnings: who limited each job (bottleneck)
 * and the plausibility checks (plausibility.c), run on the run's own result.
 *
 * The checks read results through resultread, the same path `iotrial check`
 * and `compare` use on saved files, so a warning printed at the end of a run
 * is exactly the one a later `iotrial check result.json` prints.  The result
 * is therefore rendered to JSON once here and read back.
 */
#include "run/run_warnings.h"

#include <errno.h>	/* ENOMEM */
#include <jansson.h>

#include "analysis/bottleneck.h"
#include "analysis/plausibility.h"
#include "report/report_json.h"
#include "result/resultread.h"

int run_warnings(struct run_result *r, struct err *e)
{
	struct resultread *rr = NULL;
	struct plausibility_list cl;
	json_t *doc, *arr;
	int ret;

	/* who limited each job: in the JSON read back below (without the groups if memory ran out) */
	(void)bottleneck_run(r);
	doc = report_json_build(r, 0, e);
	if (!doc)
		return e && e->code ? e->code : -ENOMEM;
	ret = resultread_from_json(doc, "this run", &rr, e);
	json_decref(doc);
	if (ret)
		return ret;
	plausibility_list_init(&cl);
	ret = plausibility_check(rr, &cl);
	resultread_free(rr);
	if (ret) {
		plausibility_list_free(&cl);
		return err_set(e, ret, EXIT_INTERNAL, "plausibility checks failed");
	}
	arr = plausibility_list_json(&cl);
	plausibility_list_free(&cl);
	if (!arr)
		return err_set(e, -ENOMEM, EXIT_INTERNAL, "out of memory for warnings");
	if (r->warnings)
		json_decref(r->warnings);
	r->warnings = arr;
	return 0;
}
