/* emu/modules.h — which guest ranges come from which files (the loader's
 * segments, file mmaps), the ELF modules among them (registered with the
 * guest symbolizer), and pc -> function, file:line for tools. Part of the
 * instrument stage. */
#ifndef KIT_EMU_MODULES_H
#define KIT_EMU_MODULES_H

#include "internal.h"
#include "kit/emu_tool.h"

/* [va, va+len) now holds the file at path from offset off (NULL path:
 * anonymous again); an ELF of the guest arch mapped from offset 0 becomes a
 * module at bias va - its first segment's address */
void kit_emu_files_map(KitEmu *emu, uint64_t va, uint64_t len, const char *path, uint64_t off);
void kit_emu_files_unmap(KitEmu *emu, uint64_t va, uint64_t len);
/* the file behind guest address va: its path and the file offset of va */
const char *kit_emu_files_at(const KitEmu *emu, uint64_t va, uint64_t *off);
/* the same, and where the file's range ends; NULL (anonymous) with *end
 * the start of the next file range above va (UINT64_MAX: none) */
const char *kit_emu_files_span(const KitEmu *emu, uint64_t va, uint64_t *off, uint64_t *end);
void kit_emu_files_free(KitEmu *emu);

#endif
