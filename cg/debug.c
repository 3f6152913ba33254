/* cg/debug.c — the debug-info side table of a module: C type descriptions
 * (ditypes) and the variables of functions, which the LLVM lowering turns
 * into DWARF (cg/llvm/debug.c). Nothing here changes what the code does. */
#include "internal.h"

#include <string.h>

#define GROW KIT_CG_GROW

uint32_t kit_cg_ditype_new(KitCgModule *m, const KitCgDiType *t, const KitCgDiMember *members, uint32_t nmembers) {
  if (!m->nditypes) m->nditypes = 1; /* index 0 means "none" */
  GROW(m, m->ditypes, m->ditypes_cap, m->nditypes + 1);
  KitCgDiType *d = &m->ditypes[m->nditypes];
  *d = *t;
  d->nmembers = nmembers;
  d->members = NULL;
  if (nmembers) {
    d->members = kit_cg_alloc(m, nmembers * sizeof *members);
    if (members) memcpy(d->members, members, nmembers * sizeof *members);
  }
  return m->nditypes++;
}

KitCgDiVar *kit_cg_divar_add(KitCgModule *m, KitCgFunc *f, const KitCgDiVar *v) {
  GROW(m, f->divars, f->divars_cap, f->ndivars + 1);
  f->divars[f->ndivars] = *v;
  return &f->divars[f->ndivars++];
}
