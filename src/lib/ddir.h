/*
 * ddir: the I/O directions and the one place their names are spelled.
 *
 * Everything that indexes per-direction values (job options, results, JSON
 * keys, messages) uses enum ddir and ddir_name(), so "read", "write", "trim"
 * are written once and always in fio's order.
 */
#ifndef IOTRIAL_DDIR_H
#define IOTRIAL_DDIR_H

enum ddir { DDIR_READ = 0, DDIR_WRITE = 1, DDIR_TRIM = 2, DDIR_NR = 3 };

/* fio's name for @d ("read", "write", "trim"); "unknown" when out of range. */
const char *ddir_name(enum ddir d);

#endif
