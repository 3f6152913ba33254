/* emu/stats.h — what the emulator reports about itself at exit. */
#ifndef KIT_EMU_STATS_H
#define KIT_EMU_STATS_H

#include "internal.h"

/* -d stats: translation and tier figures on the log */
void kit_emu_print_stats(KitEmu *emu);
/* -d perfmap: /tmp/perf-PID.map for the compiled blocks */
void kit_emu_write_perfmap(KitEmu *emu);

#endif
