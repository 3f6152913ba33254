/* emu/tools/load.c — loading a tool from a shared object: it exports the
 * tool API version it was built for (kit_emu_tool_api_version) and its entry
 * point (kit_emu_tool_main), which gets a handle registered under the file's
 * name. */
#include <dlfcn.h>
#include <string.h>

#include "tools.h"

int kit_emu_tool_load(KitEmu *emu, const char *path, const char *args, FILE *err) {
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
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
