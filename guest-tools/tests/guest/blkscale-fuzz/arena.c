// SPDX-License-Identifier: GPL-2.0
/*
 * Per-thread user memory laid out so that every kind of bad pointer is at
 * hand (see fuzz.h):
 *
 *   rw (2) | hole | ro | samples (8) | hole | majors (4) | hole
 *
 * Each array ends at a hole of its own, so that a short array faults
 * instead of running into the other one.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"

#define SAMPLES_PAGES 8	/* BLKSCALE_BATCH_MAX u64 */
#define MAJORS_PAGES 4		/* BLKSCALE_BATCH_MAX s32 */
#define ARENA_PAGES (2 + 1 + 1 + SAMPLES_PAGES + 1 + MAJORS_PAGES + 1)

/* The last page of user space on x86-64 ends here (TASK_SIZE_MAX). */
#define USER_END 0x00007ffffffff000ull

int arena_init(struct arena *a)
{
	a->page = (size_t)sysconf(_SC_PAGESIZE);
	a->base = mmap(NULL, ARENA_PAGES * a->page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a->base == MAP_FAILED)
		return -1;
	a->rw = a->base;
	a->hole = a->rw + 2 * a->page;
	a->ro = a->hole + a->page;
	a->samples = a->ro + a->page;
	a->samples_end = a->samples + SAMPLES_PAGES * a->page;
	a->majors = a->samples_end + a->page;
	a->majors_end = a->majors + MAJORS_PAGES * a->page;
	if (mprotect(a->hole, a->page, PROT_NONE) ||
	    mprotect(a->samples_end, a->page, PROT_NONE) ||
	    mprotect(a->majors_end, a->page, PROT_NONE) ||
	    mprotect(a->ro, a->page, PROT_READ))
		return -1;
	return 0;
}

void arena_free(struct arena *a)
{
	if (a->base && a->base != MAP_FAILED)
		munmap(a->base, ARENA_PAGES * a->page);
}

bool ptr_readable(enum ptr_kind k)
{
	return k == PK_VALID || k == PK_READONLY;
}

bool ptr_writable(enum ptr_kind k)
{
	return k == PK_VALID;
}

const char *ptr_kind_name(enum ptr_kind k)
{
	static const char *const names[PK_COUNT] = {
		"valid", "readonly", "null", "unmapped", "straddle",
		"kernel", "noncanonical", "task-end",
	};

	return k < PK_COUNT ? names[k] : "?";
}

static const uint64_t kernel_addrs[] = {
	0xffffffff81000000ull,	/* kernel text */
	0xffff888000000000ull,	/* direct map */
	0xffffffffff600000ull,	/* vsyscall page */
	0xfffffffffffff000ull,	/* last page */
};

static const uint64_t noncanon_addrs[] = {
	0x0000800000000000ull, 0x8000000000000000ull, 0xdead000000000000ull,
};

/* Low user addresses nothing maps (mmap_min_addr is 64 KiB). */
static const uint64_t low_addrs[] = { 16, 4096, 0x8000 };

void *arena_place(struct arena *a, struct rng *r, enum ptr_kind k,
		  const void *data, size_t size)
{
	size_t off, room;
	char *p;

	switch (k) {
	case PK_VALID:
		room = 2 * a->page - size;
		/* mostly aligned, sometimes not */
		off = rng_below(r, (uint32_t)room + 1);
		if (rng_percent(r, 80))
			off &= ~(size_t)7;
		p = a->rw + off;
		memcpy(p, data, size);
		return p;
	case PK_READONLY:
		off = rng_below(r, (uint32_t)(a->page - size) + 1) & ~(size_t)7;
		mprotect(a->ro, a->page, PROT_READ | PROT_WRITE);
		memcpy(a->ro + off, data, size);
		mprotect(a->ro, a->page, PROT_READ);
		return a->ro + off;
	case PK_NULL:
		return NULL;
	case PK_UNMAPPED:
		if (rng_percent(r, 50))
			return a->hole + rng_below(r, (uint32_t)a->page);
		return (void *)(uintptr_t)low_addrs[rng_below(r, ARRAY_SIZE(low_addrs))];
	case PK_STRADDLE:
		/* 1..size-1 bytes before the hole */
		off = 1 + rng_below(r, (uint32_t)size - 1);
		p = a->hole - off;
		memcpy(p, data, off);
		return p;
	case PK_KERNEL:
		return (void *)(uintptr_t)kernel_addrs[rng_below(r, ARRAY_SIZE(kernel_addrs))];
	case PK_NONCANON:
		return (void *)(uintptr_t)noncanon_addrs[rng_below(r, ARRAY_SIZE(noncanon_addrs))];
	case PK_TASK_END:
		/* half below the end of user space, half above */
		return (void *)(uintptr_t)(USER_END - size / 2);
	default:
		return NULL;
	}
}

uint64_t arena_array(struct arena *a, struct rng *r, enum arr_kind k,
		     uint32_t count, size_t size, bool samples,
		     uint32_t *room)
{
	char *start = samples ? a->samples : a->majors;
	char *end = samples ? a->samples_end : a->majors_end;
	uint32_t n;

	*room = ~0u;
	switch (k) {
	case AK_NONE:
		return 0;
	case AK_VALID:
		return (uintptr_t)start;
	case AK_SHORT:
		/* room for fewer than count entries before the hole */
		n = count > 1 ? rng_below(r, count) : 0;
		*room = n;
		return (uintptr_t)(end - (size_t)n * size);
	case AK_READONLY:
		*room = 0;
		return (uintptr_t)a->ro;
	case AK_UNMAPPED:
		*room = 0;
		return (uintptr_t)(a->hole + rng_below(r, (uint32_t)a->page));
	case AK_KERNEL:
		*room = 0;
		return kernel_addrs[rng_below(r, ARRAY_SIZE(kernel_addrs))];
	default:
		return 0;
	}
}

bool arr_faults(enum arr_kind k, uint32_t room, uint32_t done)
{
	if (k == AK_NONE || k == AK_VALID)
		return false;
	return done > room;
}
