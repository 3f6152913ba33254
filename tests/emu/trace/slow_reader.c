/* tests/emu/trace/slow_reader.c — `slow_reader shm:NAME EVERY USEC`: a
 * consumer that sleeps USEC microseconds after every EVERY records, so the
 * ring fills; prints the records it got and the records reported lost. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "kit/trace.h"

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: slow_reader shm:NAME EVERY USEC\n");
    return 2;
  }
  char err[256];
  KitTraceReader *r = kit_trace_reader_open(argv[1], 10000, err, sizeof err);
  if (!r) {
    fprintf(stderr, "slow_reader: %s\n", err);
    return 1;
  }
  unsigned long every = strtoul(argv[2], NULL, 10), usec = strtoul(argv[3], NULL, 10);
  uint64_t got = 0, lost = 0, blocks = 0;
  KitTraceEvent e;
  int rc;
  while ((rc = kit_trace_next(r, &e)) == 1) {
    if (e.kind == KIT_TRACE_DROPPED) {
      lost += e.u.dropped.count;
      continue;
    }
    got++;
    blocks += e.kind == KIT_TRACE_BLOCK;
    if (every && got % every == 0) usleep((useconds_t)usec);
  }
  printf("records %" PRIu64 " lost %" PRIu64 " blocks %" PRIu64 "\n", got, lost, blocks);
  kit_trace_reader_close(r);
  return rc < 0 ? 1 : 0;
}
