/* SPDX-License-Identifier: GPL-2.0 */
/* The name of an errno value, for messages and JSON ("EBUSY"). */
#ifndef BLKSCALE_ERRNAME_H
#define BLKSCALE_ERRNAME_H

/*
 * "EBUSY" for EBUSY or -EBUSY, "0" for 0, "E<number>" for a value the C
 * library has no name for.  The text of an unknown value lives in a
 * per-thread buffer until the thread's next call.
 */
const char *errno_name(int err);

#endif
