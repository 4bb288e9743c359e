/*
 * report_breakdown: where each I/O's time went (breakdown.h, docs/breakdown.md)
 * in the JSON document, the text report and the HTML pages, and the device
 * view per stonewall group with the window each view covers.
 *
 * JSON: jobs[].iotrial.breakdown (with "tail" over the steady tail),
 * jobs[].iotrial.device (the job's own device view over its window),
 * iotrial.groups[] (per stonewall group: its jobs, breakdown and device
 * views) and, on each disk_util[].iotrial, which group and job's window it
 * is.  Text: a "time per I/O" line per job after fio's part, the bottleneck
 * line, and a device-view line per group.  HTML: a stacked bar per job (and
 * its steady tail), the device views and bar per group, and one bar per side
 * in comparisons.
 */
#ifndef IOTRIAL_REPORT_BREAKDOWN_H
#define IOTRIAL_REPORT_BREAKDOWN_H

#include <stdio.h>
#include <jansson.h>
#include "measure/breakdown.h"
#include "result/result.h"

/* Add "breakdown" and "device" to a job's "iotrial" object @iot; sets *@bad on failure. */
void report_breakdown_job_json(json_t *iot, const struct job_result *jr, int *bad);

/*
 * The controller view of job @jr's NVMe passthrough target (its SMART log's
 * commands over the measured time), one text line; nothing without one.
 */
void report_breakdown_text_ctrl(FILE *f, const struct job_result *jr);

/*
 * Add iotrial.groups and each disk_util[].iotrial's window to the finished
 * document @root of @r.  Returns 0 or -ENOMEM.
 */
int report_breakdown_run_json(json_t *root, const struct run_result *r);

/*
 * Stonewall group @gid's lines: one device view per device, naming its
 * window, and for a group of several jobs its time per I/O (each job's is
 * under the job).  Nothing when @r has no groups (bottleneck_run failed).
 */
void report_breakdown_text_group(FILE *f, const struct run_result *r, unsigned gid);

/* Without groups: the run-level device views (disk_util[].view), one per device. */
void report_breakdown_text_views(FILE *f, const struct run_result *r);

/*
 * The breakdown of job object @job (from a JSON document) as a bar and a
 * table, with a second bar and columns for its steady tail when it has one;
 * nothing without one.
 */
void report_breakdown_html_job(FILE *f, const json_t *job);

/*
 * Per stonewall group of document @root (iotrial.groups): its device views,
 * each naming its window, and, for a group of several jobs, its breakdown
 * as a bar and a table (the text report's group line).  Nothing without
 * groups (fio's results).
 */
void report_breakdown_html_groups(FILE *f, const json_t *root);

/*
 * The "time_breakdown" object of a comparison (compare_time_json): a stacked
 * bar per side, the sentence naming the part that moved most, and the window
 * each side's device rows cover.  Nothing without one.
 */
void report_breakdown_html_compare(FILE *f, const json_t *tb);

#endif
