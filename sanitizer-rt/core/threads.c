/* threads.c — the thread registry reports need: who created thread Tn and from
 * where, printed once per report as "Thread T1 created by T0 here:". */
#include "san_core.h"
#include <string.h>

#define MAX_THREADS 4096

typedef struct {
  int parent;
  uint32_t stack;
} ThreadInfo;

static ThreadInfo threads[MAX_THREADS];
static uint8_t described[MAX_THREADS];
static int described_report = -1;

void kit_san_thread_created(int tid, int parent, uint32_t stack) {
  if (tid <= 0 || tid >= MAX_THREADS)
    return;
  threads[tid].parent = parent;
  threads[tid].stack = stack;
}

void kit_san_describe_thread(int tid) {
  /* Each report describes a thread at most once. */
  if (described_report != kit_san_reports) {
    memset(described, 0, sizeof described);
    described_report = kit_san_reports;
  }
  while (tid > 0 && tid < MAX_THREADS && !described[tid]) {
    described[tid] = 1;
    kit_san_printf("Thread T%d created by T%d here:\n", tid, threads[tid].parent);
    kit_san_print_stack_id(threads[tid].stack);
    tid = threads[tid].parent;
  }
}
