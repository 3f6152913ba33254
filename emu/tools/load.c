/* emu/tools/load.c — loading a tool from a shared object: it exports the
 * tool API version it was built for (kit_emu_tool_api_version) and its entry
 * point (kit_emu_tool_main), which gets a handle registered under the file's
 * name. The same file loaded again is a copy (as QEMU does for plugins), so
 * each load has its own globals. */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools.h"

/* path copied to a fresh temporary file (unlinked once loaded) into tmp */
static bool copy_of(const char *path, char *tmp, size_t n) {
  snprintf(tmp, n, "%s/kit-emu-tool.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  int out = mkstemp(tmp), in = open(path, O_RDONLY | O_CLOEXEC);
  bool ok = out >= 0 && in >= 0;
  char buf[65536];
  ssize_t got;
  while (ok && (got = read(in, buf, sizeof buf)) > 0) ok = write(out, buf, (size_t)got) == got;
  if (in >= 0) close(in);
  if (out >= 0) close(out);
  if (!ok && out >= 0) unlink(tmp);
  return ok;
}

int kit_emu_tool_load(KitEmu *emu, const char *path, const char *args, FILE *err) {
  static char loaded[16][4096];
  static unsigned nloaded;
  char real[4096], tmp[4096];
  const char *open_path = path;
  if (realpath(path, real)) {
    for (unsigned i = 0; i < nloaded; i++)
      if (!strcmp(loaded[i], real)) {
        if (!copy_of(path, tmp, sizeof tmp)) {
          fprintf(err, "kit-emu: cannot copy tool %s to load it again\n", path);
          return -1;
        }
        open_path = tmp;
      }
    if (open_path == path && nloaded < 16) snprintf(loaded[nloaded++], sizeof loaded[0], "%s", real);
  }
  void *h = dlopen(open_path, RTLD_NOW | RTLD_LOCAL);
  if (open_path != path) unlink(open_path);
  if (!h) {
    fprintf(err, "kit-emu: cannot load tool %s: %s\n", path, dlerror());
    return -1;
  }
  const uint32_t *ver = dlsym(h, "kit_emu_tool_api_version");
  int (*entry)(KitEmuTool *, const char *) = (int (*)(KitEmuTool *, const char *))dlsym(h, "kit_emu_tool_main");
  if (!ver || !entry) {
    fprintf(err, "kit-emu: %s is not a kit-emu tool (kit_emu_tool_api_version/kit_emu_tool_main missing)\n", path);
    return -1;
  }
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  KitEmuTool *tool = kit_emu_tool_register(emu, base, *ver, err);
  if (!tool) return -1;
  if (entry(tool, args ? args : "") != 0) {
    fprintf(err, "kit-emu: tool %s failed to start\n", path);
    return -1;
  }
  return 0;
}
