/*
 * breakdown_out: a breakdown as JSON (docs/json.md, "breakdown") and as one
 * line of text ("cycle X us = device ... + I/O path ... + ...").
 */
#ifndef IOTRIAL_BREAKDOWN_OUT_H
#define IOTRIAL_BREAKDOWN_OUT_H

#include <stdio.h>
#include <jansson.h>
#include "measure/breakdown.h"

/* @b as JSON: a new reference; NULL on allocation failure or when !valid. */
json_t *breakdown_json(const struct breakdown *b);

/* One line "<indent><what>: cycle ... = device ... + ..."; nothing when !valid. */
void breakdown_text(FILE *f, const char *indent, const char *what, const struct breakdown *b);

#endif
