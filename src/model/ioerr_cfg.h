/*
 * ioerr_cfg: continue_on_error and ignore_error as a job stores them
 * (struct job's ioerr, ioerr.h reads them).  Apart from ioerr.h so that
 * job.h can hold them while ioerr.c's option callbacks include job.h:
 * the modules then form no include loop.
 */
#ifndef IOTRIAL_IOERR_CFG_H
#define IOTRIAL_IOERR_CFG_H

enum { IOERR_READ = 0, IOERR_WRITE = 1, IOERR_VERIFY = 2, IOERR_NR = 3 };
#define IOERR_LIST_MAX 16

struct ioerr_cfg {
	unsigned coe;			/* bit (1 << IOERR_*) per class continued on */
	unsigned nr[IOERR_NR];		/* 0: the default list (EIO, EILSEQ) */
	int list[IOERR_NR][IOERR_LIST_MAX];
};

#endif
