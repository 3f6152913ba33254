/* cg/internal.h — helpers shared by the files of cg/ only. */
#ifndef KIT_CG_INTERNAL_H
#define KIT_CG_INTERNAL_H
#include "kit/cg.h"

/* grow an arena-owned array to hold `need` elements (old storage is left to
 * the arena, reclaimed with the module) */
void *kit_cg__grow(KitCgModule *m, void *old, uint32_t *cap, uint32_t need, size_t elem);
#define KIT_CG_GROW(m, arr, capv, need) ((arr) = kit_cg__grow((m), (arr), &(capv), (need), sizeof *(arr)))

#endif
