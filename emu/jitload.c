/* emu/jitload.c — loads kit-emu-jit.so (kitllvm and libLLVM) with dlopen on
 * the first use of the JIT, so that start-up and runs that stay in tier 0
 * pay nothing for LLVM: no mapping, relocation or static constructors of
 * libLLVM. The plugin lives in bin/../lib next to the running executable,
 * in the build tree and in an install; $KIT_EMU_JIT names another file. */
#define _GNU_SOURCE
#include "jitload.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct {
  KitJit *(*make)(int, KitCgResolver, void *, FILE *);
  void (*release)(KitJit *);
  int (*add)(KitJit *, KitCgModule *, FILE *);
  void *(*lookup)(KitJit *, const char *);
  char why[PATH_MAX + 192]; /* the reason it is unavailable, "" when loaded */
} api;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void plugin_path(char *out, size_t size) {
  const char *env = getenv("KIT_EMU_JIT");
  if (env && *env) {
    snprintf(out, size, "%s", env);
    return;
  }
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  for (int k = 0; k < 2; k++) { /* drop the file name, then bin */
    char *slash = strrchr(exe, '/');
    if (slash) *slash = 0;
  }
  snprintf(out, size, "%s/lib/kit-emu-jit.so", exe);
}

static void load(void) {
  char path[PATH_MAX + 32];
  plugin_path(path, sizeof path);
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(api.why, sizeof api.why, "cannot load the JIT: %s", dlerror());
    return;
  }
  unsigned long (*abi)(void) = (unsigned long (*)(void))dlsym(h, "kit_emu_jit_abi");
  api.make = (KitJit * (*)(int, KitCgResolver, void *, FILE *)) dlsym(h, "kit_jit_new");
  api.release = (void (*)(KitJit *))dlsym(h, "kit_jit_free");
  api.add = (int (*)(KitJit *, KitCgModule *, FILE *))dlsym(h, "kit_jit_add");
  api.lookup = (void *(*)(KitJit *, const char *))dlsym(h, "kit_jit_lookup");
  if (!abi || abi() != KIT_EMU_JIT_ABI || !api.make || !api.release || !api.add || !api.lookup) {
    snprintf(api.why, sizeof api.why, "cannot load the JIT: %s is not the plugin of this kit-emu build", path);
    api.make = NULL;
    dlclose(h);
  }
}

KitJit *kit_emu_jit_new(int opt_level, KitCgResolver resolve, void *user, FILE *err) {
  pthread_once(&once, load);
  if (!api.make) {
    fprintf(err ? err : stderr, "kit-emu: %s; running in tier 0\n", api.why);
    return NULL;
  }
  return api.make(opt_level, resolve, user, err);
}

/* a KitJit exists only if the plugin loaded */
void kit_emu_jit_free(KitJit *j) {
  if (j) api.release(j);
}
int kit_emu_jit_add(KitJit *j, KitCgModule *m, FILE *err) { return api.add(j, m, err); }
void *kit_emu_jit_lookup(KitJit *j, const char *name) { return api.lookup(j, name); }
