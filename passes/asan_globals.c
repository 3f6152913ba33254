/* passes/asan_globals.c — ASan's globals: a right redzone after every
 * instrumentable defined global (clang's size rule: at least 32 bytes, about a
 * quarter of the size for big ones, up to a multiple of 32), a descriptor per
 * global in the runtime's __asan_global layout (name, module, file:line:col),
 * and the module constructor (priority 1) that calls __asan_init and
 * __asan_register_globals, with a destructor that unregisters. */
#include "asan_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIN_RZ 32ull
#define MAX_RZ (1ull << 18)
#define DESC_SIZE 64 /* sizeof(KitSanGlobal) on LP64 */

static bool instrumentable_global(const KitCgModule *m, const KitCgGlobal *g) {
  const KitCgSymbol *sy = &m->syms[g->sym];
  if (!sy->defined || sy->kind != KIT_CG_SYM_GLOBAL) return false;
  if (g->is_tls || g->section || g->no_redzone || !g->size) return false;
  if (sy->linkage == KIT_CG_LINK_COMMON || sy->linkage == KIT_CG_LINK_WEAK) return false;
  const char *name = kit_cg_strget(m, sy->name);
  if (!strncmp(name, "__asan", 6) || !strncmp(name, ".asan", 5) || !strncmp(name, "llvm.", 5)) return false;
  return true;
}

static uint64_t right_redzone(uint64_t size) {
  uint64_t rz = size / MIN_RZ / 4 * MIN_RZ;
  if (rz > MAX_RZ) rz = MAX_RZ;
  if (rz < MIN_RZ) rz = MIN_RZ;
  if (size % MIN_RZ) rz += MIN_RZ - size % MIN_RZ;
  return rz;
}

static void put64(uint8_t *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static KitCgSym new_data(KitCgModule *m, const char *prefix, uint64_t size, bool is_const) {
  static unsigned counter;
  char name[48];
  do snprintf(name, sizeof name, "%s.%u", prefix, counter++);
  while (kit_cg_sym_find(m, name) != UINT32_MAX);
  KitCgGlobal *g = kit_cg_global_new(m, name, size, 8);
  g->no_redzone = true;
  g->is_const = is_const;
  g->init = kit_cg_alloc(m, size);
  m->syms[g->sym].linkage = KIT_CG_LINK_INTERNAL;
  return g->sym;
}

/* the symbol's name; kitcc's first string literal .str.0 is clang's .str */
static const char *report_name(const KitCgModule *m, const KitCgGlobal *g) {
  const char *n = kit_cg_sym_name(m, g->sym);
  return strcmp(n, ".str.0") ? n : ".str";
}

static KitCgFunc *new_func(KitCgModule *m, const char *prefix) {
  char name[48];
  unsigned k = 0;
  do snprintf(name, sizeof name, "%s%s%u", prefix, k ? "." : "", k);
  while (kit_cg_sym_find(m, name) != UINT32_MAX && ++k);
  KitCgFunc *f = kit_cg_func_declare(m, name, KIT_CG_VOID, NULL, 0, false);
  kit_cg_func_set_linkage(m, f, KIT_CG_LINK_INTERNAL);
  f->attrs |= KIT_CG_FA_NOSANITIZE | KIT_CG_FA_NOINLINE | KIT_CG_FA_NOUNWIND;
  return f;
}

void asan_globals(KitCgModule *m, const KitAsanConfig *c) {
  if (!c->globals) return;
  uint32_t n0 = m->nglobals, n = 0;
  KitCgGlobal **gs = calloc(n0 + 1, sizeof *gs);
  if (!gs) abort();
  for (uint32_t i = 0; i < n0; i++)
    if (instrumentable_global(m, m->globals[i])) gs[n++] = m->globals[i];
  KitCgSym descs = UINT32_MAX;
  if (n) {
    const char *module = kit_cg_strget(m, m->name);
    KitCgSym module_str = asan_cstring(m, module);
    descs = new_data(m, ".asan.globals", (uint64_t)n * DESC_SIZE, false);
    KitCgGlobal *dg = kit_cg_global_of(m, descs);
    for (uint32_t i = 0; i < n; i++) {
      KitCgGlobal *g = gs[i];
      uint64_t size = g->size, full = size + right_redzone(size);
      if (g->init) {
        uint8_t *init = kit_cg_alloc(m, full);
        memcpy(init, g->init, size);
        g->init = init;
      }
      g->size = full;
      if (g->align < MIN_RZ) g->align = MIN_RZ;
      uint8_t *d = dg->init + (uint64_t)i * DESC_SIZE;
      uint64_t at = (uint64_t)i * DESC_SIZE;
      kit_cg_global_add_reloc(m, dg, at + 0, g->sym, 0, 8);
      put64(d + 8, size);
      put64(d + 16, full);
      kit_cg_global_add_reloc(m, dg, at + 24, asan_cstring(m, report_name(m, g)), 0, 8);
      kit_cg_global_add_reloc(m, dg, at + 32, module_str, 0, 8);
      if (g->loc.file) {
        KitCgSym loc = new_data(m, ".asan.loc", 16, false);
        KitCgGlobal *lg = kit_cg_global_of(m, loc);
        kit_cg_global_add_reloc(m, lg, 0, asan_cstring(m, kit_cg_strget(m, g->loc.file)), 0, 8);
        for (int k = 0; k < 4; k++) {
          lg->init[8 + k] = (uint8_t)(g->loc.line >> (8 * k));
          lg->init[12 + k] = (uint8_t)(g->loc.col >> (8 * k));
        }
        kit_cg_global_add_reloc(m, dg, at + 48, loc, 0, 8);
      }
    }
  }
  free(gs);

  KitCgFunc *ctor = new_func(m, "asan.module_ctor");
  KitCgBuilder b;
  kit_cg_builder_init(&b, m, ctor);
  kit_cg_builder_at(&b, kit_cg_block_new(m, ctor));
  kit_cg_call(&b, kit_pass_runtime_fn(m, "__asan_init", KIT_CG_VOID, NULL, 0, false), KIT_CG_VOID, NULL, 0);
  KitCgType p[2] = {KIT_CG_PTR, KIT_CG_I64};
  if (n) {
    KitCgVal args[2] = {kit_cg_symaddr(&b, descs, 0), kit_cg_iconst(&b, KIT_CG_I64, n)};
    kit_cg_call(&b, kit_pass_runtime_fn(m, "__asan_register_globals", KIT_CG_VOID, p, 2, false), KIT_CG_VOID, args, 2);
  }
  kit_cg_ret(&b, 0);
  kit_cg_add_ctor(m, ctor->sym, 1);
  if (!n) return;
  KitCgFunc *dtor = new_func(m, "asan.module_dtor");
  kit_cg_builder_init(&b, m, dtor);
  kit_cg_builder_at(&b, kit_cg_block_new(m, dtor));
  KitCgVal args[2] = {kit_cg_symaddr(&b, descs, 0), kit_cg_iconst(&b, KIT_CG_I64, n)};
  kit_cg_call(&b, kit_pass_runtime_fn(m, "__asan_unregister_globals", KIT_CG_VOID, p, 2, false), KIT_CG_VOID, args, 2);
  kit_cg_ret(&b, 0);
  kit_cg_add_dtor(m, dtor->sym, 1);
}
