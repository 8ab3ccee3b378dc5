/* SPDX-License-Identifier: GPL-2.0 */
/* partbench's interleaved read: disks deleted and added during a full read. */
#ifndef PARTBENCH_CHURN_H
#define PARTBENCH_CHURN_H

#include "json.h"
#include "partbench.h"
#include "report.h"

/*
 * The interleaved read of f, into f->churn: adds disks taken away before
 * it and scanned back during it (at most PB_MAX_ADDS), then every disk
 * put back, waiting up to restore_timeout_s.  Returns 0 when the check
 * ran or could not run (f->churn.why says why), -1 after an error (in
 * rep).
 */
int pb_churn_run(struct pb_file *f, unsigned int adds,
		 unsigned long restore_timeout_s, struct report *rep);

/* f->churn as the member f->name of the current object. */
void pb_churn_json(struct json *j, const struct pb_file *f);

#endif
