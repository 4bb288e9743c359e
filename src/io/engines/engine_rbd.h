/*
 * engine_rbd: fio's rbd engine, I/O to a Ceph RBD image through librbd
 * (see engine_rbd.c).  This header holds its option rows, expanded into the
 * option table by opt_table.c.  They are there in every build, so that
 * they are refused under any other engine by name; ioengine=rbd itself is
 * refused when the build has no librbd (engine_absent_reason).
 */
#ifndef IOTRIAL_ENGINE_RBD_H
#define IOTRIAL_ENGINE_RBD_H

#include "model/opt_def.h"
#include "model/job_engine.h"

/* Rows for opt_table.c (F() is its field macro). */
#define ENGINE_RBD_OPTS \
	{ .name = "clustername", .engines = "rbd", .type = OPT_FUNC, F(eng.rbd_clustername), \
	  .parse = opt_parse_strbuf, .show = opt_show_strbuf, \
	  .help = "rbd: the Ceph cluster's name (its configuration is /etc/ceph/NAME.conf); " \
		  "needs clientname=" }, \
	{ .name = "rbdname", .engines = "rbd", .type = OPT_FUNC, F(eng.rbd_name), \
	  .parse = opt_parse_strbuf, .show = opt_show_strbuf, \
	  .help = "rbd: the image to do I/O on (required)" }, \
	{ .name = "pool", .engines = "rbd", .type = OPT_FUNC, F(eng.rbd_pool), \
	  .parse = opt_parse_strbuf, .show = opt_show_strbuf, \
	  .help = "rbd: the pool holding the image (required)" }, \
	{ .name = "clientname", .engines = "rbd", .type = OPT_FUNC, F(eng.rbd_clientname), \
	  .parse = opt_parse_strbuf, .show = opt_show_strbuf, \
	  .help = "rbd: the Ceph user, without 'client.' (default admin); with clustername= " \
		  "a full TYPE.ID, 'client.' added when there is no dot" }, \
	{ .name = "busy_poll", .engines = "rbd", .type = OPT_BOOL, F(eng.rbd_busy_poll), \
	  .help = "rbd: 1 spins on the completion queue instead of sleeping until one is ready" },

#endif
