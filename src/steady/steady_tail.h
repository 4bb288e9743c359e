/*
 * steady_tail: what follows the steady window: MSER-5's warm-up point over
 * the measured intervals, and the steady tail's figures.  The analysis layer
 * of steady/: it calls the rule (steady.h) and is written out by
 * steady_out.h; the structures are in steady.h.
 */
#ifndef IOTRIAL_STEADY_TAIL_H
#define IOTRIAL_STEADY_TAIL_H

#include "steady/steady.h"
#include "steady/steady_stream.h"

/*
 * The steady tail of a run whose intervals went through @ss and were stored
 * in @stored (every interval, possibly coarsened: series_sink), into @out,
 * which holds steady_stream_result and steady_stream_mser's outcome.  From a
 * held window: its start exactly (the stream's running sums); else from
 * MSER's point rounded up to the first stored element at or after it.  The
 * CI's batches are whole stored elements.  With no coarsening, the same
 * figures as steady_analyse.  Returns 0 or -ENOMEM.
 */
int steady_tail_stream(const struct steady_stream *ss, const struct series *stored, struct steady *out);

/*
 * The reporting rule with what follows it: steady_find, then MSER-5 over the
 * measured intervals (after ramp and ss_ramp) and the steady tail.  As
 * steady_check.  MSER and the tail are left out (mser_ok 0, tail NULL) when
 * the series is too short for them.
 */
int steady_analyse(const struct steady_cfg *c, const struct series *s, struct steady *out);

#endif
