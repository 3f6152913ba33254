/* frontends/c/kitcc_args.h — the driver's command line before its options are
 * parsed (kitcc_args.c): response files and the gcc options kitcc ignores. */
#ifndef KIT_C_KITCC_ARGS_H
#define KIT_C_KITCC_ARGS_H

#include <stdbool.h>

/* argv with every readable @file replaced by its arguments; *argc updated */
char **kitcc_expand_response_files(int *argc, char **argv);
/* a gcc option that cannot change what kitcc generates: accepted, no effect */
bool kitcc_ignored_option(const char *arg);
/* a CPU name gcc's -march= takes */
bool kitcc_known_cpu(const char *cpu);

#endif
