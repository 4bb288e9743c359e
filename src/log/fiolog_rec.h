/*
 * fiolog_rec: one line of a fio log before it is formatted, shared by the
 * text logs (fiolog.h) and their compressed form (fiolog_fz.h), which must
 * not depend on each other's code.
 */
#ifndef IOTRIAL_FIOLOG_REC_H
#define IOTRIAL_FIOLOG_REC_H

#include <stdint.h>

/* One log line before formatting: 32 bytes. */
struct fiolog_rec {
	uint64_t t_ms;
	uint64_t val;		/* per I/O: the value; window: the mean */
	uint64_t aux;		/* per I/O: the offset; window: the max */
	uint32_t bs;
	uint16_t ddir;
	uint16_t prio;		/* the I/O's ioprio (cmdprio.h) */
};

#endif
