/* Unit tests for preset: every embedded job file parses and validates, the
 * overrides land at the end of every job section and win, and values a job
 * file cannot carry are refused. */
#include <errno.h>
#include <stdlib.h>
#include "check.h"
#include "parse/jobfile.h"
#include "parse/opt.h"
#include "parse/preset.h"

/* Parse @text as a job file from fio's defaults; 0 or the error. */
static int parse_text(const char *text, struct jobfile_out *out, struct err *e)
{
	struct job def;
	int ret;

	job_init(&def);
	memset(out, 0, sizeof(*out));
	err_clear(e);
	ret = jobfile_parse_buf(text, strlen(text), "preset", &def, NULL, 0, out, e);
	job_free(&def);
	return ret;
}

TEST(every_preset_parses_and_validates)
{
	const struct preset *p;
	struct jobfile_out out;
	struct err e;
	size_t nr, i, k;

	p = preset_all(&nr);
	CHECK_EQ_U(nr, 5);
	for (i = 0; i < nr; i++) {
		CHECK(p[i].what && *p[i].what);
		CHECK(parse_text(p[i].text, &out, &e) == 0);
		CHECK(out.jobs_nr > 0);
		for (k = 0; k < out.jobs_nr; k++)
			CHECK(opt_job_validate(&out.jobs[k], &e) == 0);
		if (e.msg[0])
			printf("  %s: %s\n", p[i].name, e.msg);
		jobfile_out_free(&out);
	}
}

TEST(cdm_is_eight_stonewalled_direct_tests)
{
	static const char *const names[] = { "SEQ1M_Q8T1_read", "SEQ1M_Q8T1_write", "SEQ1M_Q1T1_read",
		"SEQ1M_Q1T1_write", "RND4K_Q32T1_read", "RND4K_Q32T1_write", "RND4K_Q1T1_read",
		"RND4K_Q1T1_write" };
	static const unsigned depth[] = { 8, 8, 1, 1, 32, 32, 1, 1 };
	struct jobfile_out out;
	struct err e;
	size_t k;

	CHECK(parse_text(preset_find("cdm")->text, &out, &e) == 0);
	CHECK_EQ_U(out.jobs_nr, 8);
	for (k = 0; k < out.jobs_nr && k < 8; k++) {
		CHECK_STR(out.jobs[k].name, names[k]);
		CHECK_EQ_U(out.jobs[k].iodepth, depth[k]);
		CHECK(out.jobs[k].stonewall);
		CHECK(out.jobs[k].direct);
		CHECK_EQ_U(out.jobs[k].bs[0], k < 4 ? 1u << 20 : 4096u);
		CHECK_EQ_U(out.jobs[k].startdelay_us, 5000000u);
		CHECK_EQ_U(job_writes(&out.jobs[k]), k % 2);
	}
	jobfile_out_free(&out);
}

TEST(overrides_go_after_every_job_and_win)
{
	struct job_kv over[] = { { "size", "8M" }, { "runtime", "1" }, { "time_based", NULL } };
	struct jobfile_out out;
	struct err e;
	char *text = NULL;
	const char *s;
	size_t k, n = 0;

	err_clear(&e);
	CHECK(preset_render(preset_find("snia-iops"), over, 3, &text, &e) == 0);
	CHECK(text != NULL);
	if (!text)
		return;
	for (s = text; (s = strstr(s, "\nsize=8M\nruntime=1\ntime_based\n")); s++)
		n++;
	CHECK(parse_text(text, &out, &e) == 0);
	CHECK_EQ_U(n, out.jobs_nr);	/* once per job, none in [global] */
	CHECK_EQ_U(out.jobs_nr, 51);
	for (k = 0; k < out.jobs_nr; k++) {
		CHECK_EQ_U(out.jobs[k].size, 8u << 20);
		CHECK_EQ_U(out.jobs[k].runtime_us, 1000000u);
		CHECK(out.jobs[k].time_based);
	}
	/* precond_seq writes the region twice; the matrix is read/write mixed */
	CHECK_STR(out.jobs[0].name, "precond_seq");
	CHECK_EQ_U(out.jobs[0].loops, 2);
	CHECK(out.jobs[1].snia_stop);
	CHECK_STR(out.jobs[2].name, "iops_1m_r0w100");
	CHECK_EQ_U(out.jobs[50].rwmixread, 100);
	jobfile_out_free(&out);
	free(text);

	/* without overrides the text is the preset's own */
	CHECK(preset_render(preset_find("cdm"), NULL, 0, &text, &e) == 0);
	CHECK_STR(text, preset_find("cdm")->text);
	free(text);
}

TEST(values_a_job_file_cannot_carry_are_refused)
{
	static const char *const bad[] = { "a;b", "a#b", "a\nb", "${HOME}" };
	struct job_kv kv = { "filename", NULL };
	struct err e;
	char *text = (char *)1;
	size_t i;

	for (i = 0; i < 4; i++) {
		err_clear(&e);
		kv.val = (char *)bad[i];
		CHECK(preset_render(preset_find("oltp"), &kv, 1, &text, &e) == -EINVAL);
		CHECK(text == NULL);
		CHECK(e.exit_code == EXIT_USAGE);
		CHECK(strstr(e.msg, "option 'filename'") != NULL);
	}
}

TEST(unknown_name_lists_the_presets)
{
	const struct preset *p = (void *)1;
	struct err e;

	err_clear(&e);
	CHECK(preset_lookup("cdm", &p, &e) == 0 && p == preset_find("cdm"));
	CHECK(preset_lookup("CDM", &p, &e) == -ENOENT);
	CHECK(p == NULL);
	CHECK(e.exit_code == EXIT_USAGE);
	CHECK_STR(e.msg, "unknown preset 'CDM' (presets: cdm, seed, seed-async, oltp, snia-iops)");
}

int main(void)
{
	RUN(every_preset_parses_and_validates);
	RUN(cdm_is_eight_stonewalled_direct_tests);
	RUN(overrides_go_after_every_job_and_win);
	RUN(values_a_job_file_cannot_carry_are_refused);
	RUN(unknown_name_lists_the_presets);
	return CHECK_DONE();
}
