// SPDX-License-Identifier: GPL-2.0
/* Polling /sys/block for the expected disks (see diskwait.h). */
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "diskwait.h"

#define NS_PER_MS 1000000ull

static bool has_prefix(const char *name, const char *prefix)
{
	return !strncmp(name, prefix, strlen(prefix)) &&
	       name[strlen(prefix)] != '\0';
}

bool disk_name_counts(const char *name)
{
	return has_prefix(name, "sd") || has_prefix(name, "vd") ||
	       has_prefix(name, "nullb");
}

long disk_count(const char *dir)
{
	struct dirent *de;
	long n = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d)))
		n += disk_name_counts(de->d_name);
	closedir(d);
	return n;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = {
		.tv_sec = (time_t)(t / 1000000000ull),
		.tv_nsec = (long)(t % 1000000000ull),
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

int disk_wait(struct disk_wait *w)
{
	uint64_t step = (w->interval_ms ? w->interval_ms : 1) * NS_PER_MS;
	uint64_t start = 0, look, took, prev = 0, end = 0, next = 0, shown = 0;
	long n;

	w->found = 0;
	w->looks = 0;
	w->max_gap_ns = 0;
	w->max_look_ns = 0;
	w->error = 0;
	w->timed_out = false;
	for (;;) {
		look = now_ns();
		if (!w->looks) {
			/* the schedule starts with the first look */
			start = next = shown = look;
			end = start + w->timeout_ms * NS_PER_MS;
		} else if (look - prev > w->max_gap_ns) {
			w->max_gap_ns = look - prev;
		}
		prev = look;
		n = w->count ? w->count(w->dir) : disk_count(w->dir);
		w->looks++;
		if (n < 0)
			w->error = (int)n;
		else
			w->found = (unsigned long)n;
		took = now_ns() - look;
		if (took > w->max_look_ns)
			w->max_look_ns = took;
		w->waited_ns = look - start;
		if (w->found >= w->expected)
			return 0;
		if (look >= end) {
			w->timed_out = true;
			return 1;
		}
		if (w->progress && look - shown >= 1000 * NS_PER_MS) {
			fprintf(w->progress, "blkscale: settle: %lu/%lu disks\n",
				w->found, w->expected);
			fflush(w->progress);
			shown = look;
		}
		/* the next slot that leaves 4 looks' time free; or the end */
		do
			next += step;
		while (next <= look + 5 * took);
		if (next > end)
			next = end;
		sleep_until(next);
	}
}
