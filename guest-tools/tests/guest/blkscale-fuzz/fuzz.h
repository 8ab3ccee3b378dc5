/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blkscale-fuzz: randomized ioctls against /dev/blkscale_majors from
 * several threads, with a model of what every file holds so that each
 * answer can be checked where it is knowable.
 *
 * Locking, outermost first: slot->life (read: using the fd; write:
 * opening or closing it), slot->op (held across a call that may change
 * what the file holds, and the model update after it), run->lock (the
 * table of who holds which major, the violation list).
 */
#ifndef BLKSCALE_FUZZ_H
#define BLKSCALE_FUZZ_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "compiler.h"
#include "helper.h"
#include "procdevices.h"

/* ---- random numbers (one generator per thread) ---- */

struct rng {
	uint64_t s;
};

void rng_seed(struct rng *r, uint64_t seed, unsigned int stream);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n); n > 0. */
uint32_t rng_below(struct rng *r, uint32_t n);
bool rng_percent(struct rng *r, unsigned int percent);
void rng_fill(struct rng *r, void *buf, size_t len);

/* ---- user memory with holes, read-only pages and kernel addresses ---- */

enum ptr_kind {
	PK_VALID,	/* readable and writable */
	PK_READONLY,	/* readable, writes fault */
	PK_NULL,
	PK_UNMAPPED,	/* a user address with nothing mapped */
	PK_STRADDLE,	/* starts mapped, runs into an unmapped page */
	PK_KERNEL,	/* kernel half: access_ok() refuses it */
	PK_NONCANON,	/* not canonical */
	PK_TASK_END,	/* runs past the end of user space */
	PK_COUNT,
};

/* Arrays the module writes to: samples and majors of batch/char probe. */
enum arr_kind {
	AK_NONE,	/* 0: the module does not return the array */
	AK_VALID,	/* room for BLKSCALE_BATCH_MAX entries */
	AK_SHORT,	/* room for arr_room entries, then an unmapped page */
	AK_READONLY,
	AK_UNMAPPED,
	AK_KERNEL,	/* refused up front by access_ok() */
	AK_COUNT,
};

struct arena {
	size_t page;
	char *base;
	char *rw;	/* 2 pages, structures are placed here */
	char *hole;	/* 1 page, never accessible */
	char *ro;	/* 1 page, read-only between calls */
	char *samples;	/* room for BLKSCALE_BATCH_MAX u64, then a hole */
	char *samples_end;
	char *majors;	/* room for BLKSCALE_BATCH_MAX s32, then a hole */
	char *majors_end;
};

int arena_init(struct arena *a);
void arena_free(struct arena *a);
bool ptr_readable(enum ptr_kind k);
bool ptr_writable(enum ptr_kind k);
/*
 * A pointer of kind k to a copy of data (size bytes) where the kind
 * allows one (VALID, READONLY; STRADDLE gets the bytes that fit).
 */
void *arena_place(struct arena *a, struct rng *r, enum ptr_kind k,
		  const void *data, size_t size);
/*
 * An address for an array of count entries of size bytes.  *room is how
 * many entries the module may write before it faults (~0u: all).
 */
uint64_t arena_array(struct arena *a, struct rng *r, enum arr_kind k,
		     uint32_t count, size_t size, bool samples,
		     uint32_t *room);
/* Whether writing done entries to an array of kind k, room faults. */
bool arr_faults(enum arr_kind k, uint32_t room, uint32_t done);
const char *ptr_kind_name(enum ptr_kind k);

/* ---- names ---- */

/* The module's rule: 1..max allowed characters before a NUL in size. */
bool name_ok(const char *name, size_t size, size_t max);
/* Random name field: mostly valid names starting with 's', else junk. */
void gen_name(struct rng *r, char *buf, size_t size);
/* A flags or reserved field: mostly 0, which is all the module takes. */
uint32_t gen_must_be_zero(struct rng *r);
/* A valid batch prefix, unique for the run: 'B' and 4 base-62 digits. */
void gen_prefix(char *buf, size_t size, uint64_t seq);

/* ---- the model ---- */

#define FUZZ_MAX_SLOTS 64
#define FUZZ_MAX_VIOLATIONS 64
#define FUZZ_ERRNO_MAX 256

enum cmd_kind {
	CMD_VERSION,
	CMD_REGISTER,
	CMD_UNREGISTER,
	CMD_BATCH,
	CMD_CHAR_PROBE,
	CMD_PROBE_HITS,
	CMD_MANGLED,	/* the module's magic with a wrong number/size/dir */
	CMD_RANDOM,	/* anything else */
	CMD_COUNT,
};

struct held {
	int32_t major;
	char name[BLKSCALE_NAME_MAX + 1];
};

/* One open file of the helper device, used by one or several threads. */
struct slot {
	unsigned int id;
	bool shared;
	pthread_rwlock_t life;
	pthread_mutex_t op;
	int fd;			/* -1 while closed */
	struct held *held;	/* in registration order, like the module */
	size_t nheld;
};

/* Per major: which slot holds it, and whether it is being let go. */
struct owner {
	int16_t slot;		/* -1: none */
	bool releasing;
};

/* What one worker did and saw, summed over the workers at the end. */
struct fuzz_counts {
	uint64_t by_cmd[CMD_COUNT];
	uint64_t by_errno[FUZZ_ERRNO_MAX + 1];	/* last: larger values */
	uint64_t opens, closes, lookups;
	uint64_t checks;		/* PROBE_HITS made to check the model */
	uint64_t exact;			/* EBUSY/0 predictions made exactly */
	uint64_t warns_expected;	/* wrong-name unregisters that WARN */
	/* unregisters refused with EFAULT, checked to have let nothing go */
	uint64_t unreg_efault_kept;
	uint64_t batch_efault_kept;
	uint64_t registered, unregistered;
};

struct run {
	/* configuration */
	unsigned long calls_target;
	unsigned long duration_s;
	unsigned long seed;
	unsigned int threads;
	unsigned int shared_slots;
	unsigned long check_every;
	unsigned long wrong_name_budget;
	/* the module fails every wrong-name re-registration (-ENOMEM) */
	bool inject_enomem;
	const char *module_path;	/* reloaded at the end */
	const char *node_dir;
	const char *progress;
	int32_t major_limit;		/* 512 or 4096: explicit majors below */

	struct procdevices baseline;
	bool in_baseline[BLKSCALE_MAJOR_LIMIT];
	bool ever_held[BLKSCALE_MAJOR_LIMIT];	/* under lock */

	unsigned int nslots;
	struct slot slots[FUZZ_MAX_SLOTS];

	pthread_mutex_t lock;		/* everything below */
	struct owner owner[BLKSCALE_MAJOR_LIMIT];
	unsigned int inflight;		/* calls that may change majors */
	uint64_t started;		/* such calls started, ever */
	uint64_t batch_seq;
	unsigned long wrong_name_used;
	size_t nviolations;
	char violations[FUZZ_MAX_VIOLATIONS][256];
	size_t held_now, held_max;

	/* counted while threads run, summed at the end */
	uint64_t calls;			/* fuzzed ioctls, atomically */

	/* epochs: threads fuzz, then wait while the model is checked */
	pthread_barrier_t go, done;
	bool stop;
	unsigned long per_epoch;	/* operations per thread */
};

/* A broken expectation: kept for the JSON, printed to stderr. */
void violation(struct run *run, const char *fmt, ...) __printf(2, 3);

void model_init(struct run *run);
/* Whether slot @s holds @major; *index is its entry (newest match). */
bool model_held_by(struct run *run, struct slot *s, int32_t major,
		   size_t *index);
/* Under s->op: the kernel gave @major to @s under @name. */
void model_add(struct run *run, struct slot *s, int32_t major,
	       const char *name);
/* Under s->op: entries [from, nheld) are about to be let go. */
void model_mark_releasing(struct run *run, struct slot *s, size_t from,
			  bool on);
void model_mark_one(struct run *run, struct slot *s, size_t i, bool on);
/* Under s->op: entry @i is gone. */
void model_remove(struct run *run, struct slot *s, size_t i);
/* Ask the module which of the slot's entries from @from are still held. */
void model_resync(struct run *run, struct slot *s, size_t from,
		  struct fuzz_counts *st);
/*
 * A call that may change what some file holds begins (true if no other
 * such call was running) and ends (after the model was updated).
 */
bool model_begin(struct run *run, uint64_t *mark);
void model_end(struct run *run);
/*
 * Right after the call: -1 if another call began or ran meanwhile (the
 * kernel's state is not known exactly), else 1 if nobody holds @major
 * (neither a slot nor a driver of the baseline), 0 if somebody does.
 */
int model_verdict(struct run *run, bool alone, uint64_t mark, int32_t major);

/* ---- operations (ops.c, ops_batch.c) ---- */

struct worker {
	struct run *run;
	unsigned int id;
	pthread_t thread;
	struct rng rng;
	struct arena arena;
	struct fuzz_counts st;
	char node[PATH_MAX];	/* device node for lookups */
};

/* One random operation on a random slot. */
void fuzz_one(struct worker *w);
/* Close a slot's file (s->life held for writing); the model lets go. */
void slot_close(struct run *run, struct slot *s, struct fuzz_counts *st);
/* Count one fuzzed ioctl; ret is ioctl()'s result, err its errno. */
void count_call(struct worker *w, enum cmd_kind cmd, int ret, int err);
/* Checked PROBE_HITS on a slot's fd; -errno or 0. */
int probe_hits(int fd, int32_t major, struct blkscale_probe_hits *h,
	       struct fuzz_counts *st);
/* Whether err is among the allowed values (0-terminated list). */
bool errno_in(int err, const int *allowed);

void op_batch(struct worker *w, struct slot *s);
void op_char_probe(struct worker *w, struct slot *s);
/* Find the majors of a batch's names in /proc/devices. */
int resolve_batch(const char *prefix, uint32_t base, uint32_t done,
		  int32_t *majors);
bool prefix_listed(const char *prefix);

/* ---- checks (checks.c) ---- */

/* Quiescent: /proc/devices and the module agree with the model. */
void checkpoint(struct run *run, int probe_fd);

struct kmsg_watch {
	pthread_t thread;
	int fd;
	int stop;			/* set with __atomic_store_n() */
	pthread_mutex_t lock;
	uint64_t records, lost;
	uint64_t unregister_warns;	/* WARNING ... unregister_blkdev */
	uint64_t problems;		/* everything else that is a splat */
	char first_problem[256];
};

int kmsg_start(struct kmsg_watch *k);
void kmsg_stop(struct kmsg_watch *k);

struct kmemleak {
	bool available;
	long leaks;			/* after the run, -1 if not scanned */
	char first[512];		/* first report, abridged */
};

void kmemleak_prepare(struct kmemleak *k);
void kmemleak_check(struct kmemleak *k);

/* Slab and SUnreclaim of /proc/meminfo after letting the caches settle. */
void slab_settle(long *slab_kb, long *sunreclaim_kb);

#endif
