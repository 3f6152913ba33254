/* tests/baseline/compile_hook.c — the compiler the suite tests: the baseline
 * compiler, or (KIT_BASELINE_SELFTEST) the interpreter's trampolines, which
 * check the harness itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"

KitBaseline *baseline;
int selftest;
bool nohb;

static KitCgModule *self_m;
static KitInterp *self_ip;
static void self_release(void) {
  if (self_ip) kit_interp_free(self_ip);
  if (self_m) kit_cg_module_free(self_m);
  self_ip = NULL;
  self_m = NULL;
}

void *compile_fn(KitCgModule *m, KitCgFunc *f, const char **why) {
  if (!selftest) return kit_baseline_compile(baseline, m, f, why);
  self_release();
  char *text = module_text(m);
  self_m = kit_cg_parse(text, strlen(text), "self", stderr);
  free(text);
  if (!self_m) return NULL;
  for (uint32_t i = 0; selftest == 2 && i < self_m->nfuncs; i++) {
    KitCgFunc *g = self_m->funcs[i];
    for (uint32_t b = 0; b < g->nblocks; b++)
      for (uint32_t k = 0; k < g->blocks[b].ninsts; k++)
        if (g->blocks[b].insts[k].op == KIT_CG_OP_ASHR) g->blocks[b].insts[k].op = KIT_CG_OP_LSHR;
  }
  self_ip = kit_interp_new(self_m, host_resolve, NULL, stderr);
  void *code = self_ip ? kit_interp_symbol(self_ip, kit_cg_func_name(m, f)) : NULL;
  if (!code && why) *why = "selftest: no trampoline";
  return code;
}

size_t code_size(void) { return baseline ? kit_baseline_code_size(baseline) : 0; }

void *compile_for_diff(void *ctx, KitCgModule *m, KitCgFunc *f, const char **why) {
  (void)ctx;
  size_t size0 = code_size();
  void *code = compile_fn(m, f, why);
  if (code && nohb && baseline && code_has_highbyte(code, code_size() - size0)) code = NULL;
  return code;
}

/* a byte register 4..7 without a REX prefix in movzx/movsx, setcc or a byte
 * store; immediates can make it a false positive */
bool code_has_highbyte(const unsigned char *c, size_t n) {
  for (size_t i = 0; i + 2 < n; i++) {
    bool rex = i > 0 && (c[i - 1] & 0xf0) == 0x40;
    if (rex) continue;
    if (c[i] == 0x0f && (c[i + 1] == 0xb6 || c[i + 1] == 0xbe) && (c[i + 2] >> 6) == 3 && (c[i + 2] & 4)) return true;
    if (c[i] == 0x0f && (c[i + 1] & 0xf0) == 0x90 && (c[i + 2] >> 6) == 3 && (c[i + 2] & 4)) return true;
    if (c[i] == 0x88 && (c[i + 1] & 0x20) && ((c[i + 1] >> 3) & 7) >= 4 && (c[i + 1] >> 6) != 3) {
      if (i >= 1 && c[i - 1] == 0x66) continue;
      return true;
    }
  }
  return false;
}
