/* tests/lib/host_env.h — the world a tested CG function runs in: a scratch
 * buffer inside a guard region, and host helpers it may call (directly by
 * name or through call stubs), each logging its arguments. Buffer and stubs
 * sit at fixed addresses when the kernel allows, so a function printed as CG
 * text (constant addresses included) reproduces in another process. */
#ifndef KIT_TESTLIB_HOST_ENV_H
#define KIT_TESTLIB_HOST_ENV_H

#include <stdbool.h>
#include <stdint.h>

#include "kit/cg.h"

/* ---- the scratch region ----------------------------------------------------------
 * Generated code only touches buf[0..BUFSZ); the reducer's mutations may move
 * pointers, so the buffer sits in the middle of a large guard region and the
 * whole region is compared. */
#define BUFSZ 512
#define GUARD (64 * 1024)
#define REGION (2 * GUARD + BUFSZ)
#define REGION_BASE 0x3f0000000000ull
#define STUB_BASE 0x3e0000000000ull /* helper h's call stub: STUB_BASE + 16 * h */

extern unsigned char *region;     /* the whole region */
extern unsigned char *buf;        /* region + GUARD */
extern unsigned char region_init[REGION]; /* what each run starts from */

/* maps the region and the helpers' stubs; false when either is not at its
 * fixed address (things still run; printed functions then do not reproduce) */
bool host_env_init(void);
/* region_init from a seed: random bytes, and some zeros and small values */
void region_randomize(uint64_t seed);

/* the bits of a value of type t */
uint64_t type_mask(KitCgType t);

/* ---- host helpers ------------------------------------------------------------------ */

#define LOGMAX 128
typedef struct LogEnt {
  int id, n, misaligned; /* misaligned: rsp was not 16-byte aligned at the call */
  uint64_t a[6];
} LogEnt;
extern LogEnt hlog[LOGMAX];
extern int nlog;
extern uint64_t hctr; /* state some helpers keep: the order of calls matters */

typedef struct Helper {
  const char *name;
  int nargs;
  KitCgType ret;
  bool bufarg; /* first argument is a ptr into the buffer (64 bytes readable) */
  void *addr;
  uint64_t stub; /* calli target: a jump to addr at a fixed address */
} Helper;
enum { NHELPERS = 15 };
extern Helper helpers[NHELPERS];

/* the resolver for the executors: the helpers by name */
void *host_resolve(void *user, const char *name);
/* a declaration of helper h in m */
KitCgSym helper_sym(KitCgModule *m, int h);
/* helper h called from C with arguments x (the reference for the executors' calls) */
uint64_t helper_call_c(int h, const uint64_t *x);

/* the region back to region_init, the call log empty */
void host_env_reset(void);

#endif
