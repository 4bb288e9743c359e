/*
 * report_fionum: a number as fio 3.33's normal output prints it, so that the
 * fio-shaped part of the text report reads (and parses) as fio's does:
 * IOPS=4193 and IOPS=37.3k, BW=85.9MiB/s, min=12031k.
 *
 * The rule, as fio's output shows it (tests/e2e/report_text_fio_format.sh compares
 * with fio's own output): a value with more than @digits digits is divided
 * by 1000 (1024 when @bin) until it has at most @digits, and gets the
 * prefix of the divisions (k M G T P, or Ki Mi Gi Ti Pi).  When divided and
 * two digit places or more are left, the rest of the last division fills
 * all but one of them after a point (rounded as printf rounds; one that
 * rounds up to a whole carries: 16773120 bytes is 16.0MiB); with fewer
 * places left the number is rounded to a whole by that rest.
 * @unit follows ("B", "B/s" or "").
 */
#ifndef IOTRIAL_REPORT_FIONUM_H
#define IOTRIAL_REPORT_FIONUM_H

#include <stddef.h>
#include <stdint.h>

void report_fionum(char *buf, size_t len, uint64_t v, int digits, int bin, const char *unit);

#endif
