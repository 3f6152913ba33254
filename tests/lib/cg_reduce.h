/* tests/lib/cg_reduce.h — shrinking a CG text whose @f shows a bug to a
 * small reproducer, keeping every mutation after which it still shows it. */
#ifndef KIT_TESTLIB_CG_REDUCE_H
#define KIT_TESTLIB_CG_REDUCE_H

#include <stdbool.h>

/* does this CG text still show the bug? */
typedef bool (*CgStillFails)(void *ctx, const char *text);

/* the reduced text (malloc'd; text itself when nothing could go), after at
 * most 3000 trials. Values flowing into an address or a callee are only ever
 * replaced by 0 (the generator's offsets are masks of them), pointers by
 * the first ptr parameter (the scratch buffer). */
char *cg_reduce(const char *text, CgStillFails still_fails, void *ctx);

#endif
