/* sanitizer-rt/ubsan/ubsan_rt.h — the UBSan runtime's contract with the pass
 * (passes/ubsan.c): the static data record of one check site and the report
 * writer the handlers share. Plain C, no CG. */
#ifndef KIT_UBSAN_RT_H
#define KIT_UBSAN_RT_H

#include <stdbool.h>
#include <stdint.h>

/* One per check site, writable: the column becomes ~0 once reported, so each
 * site reports once, as clang's runtime does. tinfo: bits | signed << 16 |
 * kind << 17 (0 int, 1 float, 2 pointer, 3 other). extra/extra2 depend on
 * the handler (see handlers.c). */
typedef struct KitUbsanData {
  const char *file;
  uint32_t line, col;
  const char *type;
  uint32_t tinfo, extra;
  const char *type2;
  uint32_t t2info, extra2;
} KitUbsanData;

static inline unsigned kit_ubsan_bits(uint32_t tinfo) { return tinfo & 0xffff; }
static inline bool kit_ubsan_signed(uint32_t tinfo) { return (tinfo >> 16) & 1; }

/* Claim the site: false when it already reported or a suppression matches.
 * check is clang's name of the check ("signed-integer-overflow"). */
bool kit_ubsan_begin(KitUbsanData *d, const char *check);
/* "file:line:col: runtime error: " + the message */
void kit_ubsan_error(const KitUbsanData *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void kit_ubsan_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* the memory around addr, as clang's "note: pointer points here" */
void kit_ubsan_memory_note(uintptr_t addr);
/* stack trace (print_stacktrace), SUMMARY, then halt_on_error / fatal */
void kit_ubsan_end(const KitUbsanData *d, bool fatal);

#endif
