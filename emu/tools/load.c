/* emu/tools/load.c — loading a tool from a shared object: checks its
 * kit_emu_tool_version against KIT_EMU_API_VERSION, then calls its
 * kit_emu_tool_install(emu, args). */
#include <dlfcn.h>

#include "tools.h"

int kit_emu_tool_load(KitEmu *emu, const char *path, const char *args, FILE *err) {
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    fprintf(err, "kit-emu: cannot load tool %s: %s\n", path, dlerror());
    return -1;
  }
  const uint32_t *ver = dlsym(h, "kit_emu_tool_version");
  int (*install)(KitEmu *, const char *) = (int (*)(KitEmu *, const char *))dlsym(h, "kit_emu_tool_install");
  if (!ver || !install) {
    fprintf(err, "kit-emu: %s is not a kit-emu tool (kit_emu_tool_version/kit_emu_tool_install missing)\n", path);
    return -1;
  }
  if (*ver != KIT_EMU_API_VERSION) {
    fprintf(err, "kit-emu: tool %s was built for API version %u, this kit-emu has %u\n", path, *ver,
            KIT_EMU_API_VERSION);
    return -1;
  }
  if (install(emu, args ? args : "") != 0) {
    fprintf(err, "kit-emu: tool %s failed to install\n", path);
    return -1;
  }
  return 0;
}
