/* SPDX-License-Identifier: GPL-2.0 */
/* Version of the guest tools, reported in every result. */
#ifndef BLKSCALE_VERSION_H
#define BLKSCALE_VERSION_H

#define BLKSCALE_TOOLS_VERSION "1.0.0"

#endif
