/* init.c — the guest glue's start-up: the shared options/output start-up
 * (core/startup.c: ASAN_OPTIONS / LSAN_OPTIONS from kit-emu's environment,
 * which the guest inherits), and the core wired to guest pages, the guest
 * shadow call stack and the guest symbolizer. */
#include <stdio.h>

#include "guest.h"

static bool ready;
static KitGuestEnv genv;

static uintptr_t pages_map(void *ctx, size_t size) { return genv.map(ctx, size); }
static void pages_unmap(void *ctx, uintptr_t a, size_t size) { genv.unmap(ctx, a, size); }

size_t kit_guest_unwind(void *ctx, uintptr_t pc, uintptr_t bp, uintptr_t *out, size_t max);

/* the T number of the guest thread on this host thread */
static __thread int cur_tid;
static int guest_tid(void) { return cur_tid; }
void kit_guest_thread_begin(int tid) { cur_tid = tid; }

void kit_guest_init(const KitGuestEnv *env, uintptr_t shadow_host) {
  genv = *env;
  /* reports go where kit-emu's own stderr does (a descriptor the guest
   * cannot close: emu/rlimits.h); kit-emu's stdio is flushed before a fatal
   * report ends it */
  kit_san_out_default(fileno(stderr));
  const KitSanPlatform *plat = kit_san_startup(NULL, guest_tid, true);
  kit_san_shadow_base = shadow_host;
  __asan_shadow_memory_dynamic_address = shadow_host;
  static KitSanPageProvider pages;
  pages = (KitSanPageProvider){pages_map, pages_unmap, env->ctx, env->host_delta};
  static const KitSanFrameSource frames = {kit_guest_unwind, NULL};
  static const KitSanSymbolizer sym = {kit_guest_symbolize, NULL};
  kit_san_core_init(plat, &pages, &frames, &sym);
  ready = true;
}

bool kit_guest_ready(void) { return ready; }

/* for the string functions: is guest memory there (else the guest faults) */
bool kit_guest_accessible(uintptr_t addr, size_t n, bool write) {
  return !n || genv.accessible(genv.ctx, addr, n, write);
}
uintptr_t kit_guest_delta(void) { return genv.host_delta; }
