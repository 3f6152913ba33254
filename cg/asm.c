/* cg/asm.c — GNU inline assembly in CG: building ASM/ASMGOTO insts and
 * module-level asm, and splitting their constraint strings (LLVM's syntax)
 * into entries for the verifier and the LLVM lowering. */
#include "internal.h"

#include <string.h>

void kit_cg_module_asm(KitCgModule *m, const char *text) {
  KIT_CG_GROW(m, m->asms, m->asms_cap, m->nasms + 1);
  m->asms[m->nasms++] = kit_cg_str(m, text);
}

static int entry_kind(const char *s, size_t n) {
  if (s[0] == '~') return KIT_CG_ASM_CLOBBER;
  if (s[0] == '!') return KIT_CG_ASM_LABEL;
  if (s[0] == '*') return KIT_CG_ASM_IN_MEM;
  if (s[0] != '=') return KIT_CG_ASM_IN;
  size_t i = 1;
  while (i < n && s[i] == '&') i++;
  return i < n && s[i] == '*' ? KIT_CG_ASM_OUT_MEM : KIT_CG_ASM_OUT;
}

int kit_cg_asm_entries(const char *constraints, uint8_t *kinds, int max) {
  if (!constraints || !*constraints) return 0;
  int n = 0;
  for (const char *s = constraints;;) {
    const char *e = strchr(s, ',');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    size_t code = strspn(s, "=&*~!+%");
    if (!len || code >= len) return -1;
    if (n < max) kinds[n] = (uint8_t)entry_kind(s, len);
    n++;
    if (!e) return n;
    s = e + 1;
  }
}

KitCgInst *kit_cg_asm(KitCgBuilder *b, const char *tmpl, const char *constraints, bool side_effects,
                      const KitCgVal *args, const KitCgType *types, uint32_t nargs, const KitCgBlkId *blks,
                      uint32_t nblks) {
  KitCgInst *in = kit_cg_emit(b, nblks ? KIT_CG_OP_ASMGOTO : KIT_CG_OP_ASM, KIT_CG_VOID, args, nargs);
  in->aux = kit_cg_str(b->m, tmpl);
  in->imm = kit_cg_str(b->m, constraints);
  if (side_effects) in->flags |= KIT_CG_F_VOLATILE;
  in->argattrs = kit_cg_alloc(b->m, (nargs + 1) * sizeof(KitCgParam));
  for (uint32_t i = 0; i < nargs; i++) in->argattrs[i].type = (uint8_t)types[i];
  if (nblks) kit_cg_inst_set_blks(b->m, in, blks, nblks);
  return in;
}
