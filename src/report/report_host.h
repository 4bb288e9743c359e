/*
 * report_host: a single run's host lines (iotrial.host, docs/vm.md) in the
 * text report and the HTML page: the drive and its ops against the guest's
 * I/Os, the backend's latency, QEMU's CPU per I/O by role, the virtual
 * device path, the time per I/O across the hypervisor, and in the HTML
 * the host's series as charts on the guest job's clock.
 */
#ifndef IOTRIAL_REPORT_HOST_H
#define IOTRIAL_REPORT_HOST_H

#include <jansson.h>
#include <stdio.h>

/* The host's lines after a run's text (@host: its iotrial.host). */
void report_host_text(FILE *f, const json_t *host);

/*
 * The host's section of a result @root in the HTML page (nothing without
 * iotrial.host); its charts when the result has series charts (iotrial's
 * intervals) and the host a series.
 */
void report_host_html(FILE *f, const json_t *root);

#endif
