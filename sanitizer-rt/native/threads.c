/* threads.c — pthread_create, defined by the runtime: numbers threads T1, T2, ...
 * for reports, records the creating stack, and notes each thread's stack bounds
 * for the unwinder. The real pthread_create is reached through dlsym. */
#define _GNU_SOURCE
#include "native.h"
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>

typedef struct {
  void *(*fn)(void *);
  void *arg;
  int tid;
} Start;

static __thread int my_tid;
static __thread uintptr_t my_stack_lo, my_stack_hi;
static int next_tid = 1;

/* Live threads' stacks, for LSan: a thread still running at exit holds roots. */
#define MAX_LIVE 1024
static struct {
  uintptr_t lo, hi;
  int alive;
} live[MAX_LIVE];
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;

static void thread_gone(void *slot) {
  __atomic_store_n(&live[(uintptr_t)slot - 1].alive, 0, __ATOMIC_RELEASE);
}
static void make_key(void) { pthread_key_create(&exit_key, thread_gone); }

void kit_native_threads_foreach_stack(void (*fn)(uintptr_t lo, uintptr_t hi, void *), void *ctx) {
  for (int i = 0; i < MAX_LIVE; i++)
    if (__atomic_load_n(&live[i].alive, __ATOMIC_ACQUIRE) && !(my_tid && i == my_tid % MAX_LIVE))
      fn(live[i].lo, live[i].hi, ctx);
}

int kit_native_tid(void) { return my_tid; }

bool kit_native_thread_stack(uintptr_t *lo, uintptr_t *hi) {
  if (!my_stack_hi)
    return false;
  *lo = my_stack_lo;
  *hi = my_stack_hi;
  return true;
}

static void *trampoline(void *p) {
  Start s = *(Start *)p;
  kit_san_free((uintptr_t)p, 0);
  my_tid = s.tid;
  kit_native_altstack_install();
  pthread_attr_t attr;
  if (!pthread_getattr_np(pthread_self(), &attr)) {
    void *addr;
    size_t size;
    if (!pthread_attr_getstack(&attr, &addr, &size)) {
      my_stack_lo = (uintptr_t)addr;
      my_stack_hi = (uintptr_t)addr + size;
    }
    pthread_attr_destroy(&attr);
  }
  int slot = s.tid % MAX_LIVE;
  if (my_stack_hi) {
    live[slot].lo = my_stack_lo;
    live[slot].hi = my_stack_hi;
    __atomic_store_n(&live[slot].alive, 1, __ATOMIC_RELEASE);
    pthread_once(&exit_once, make_key);
    pthread_setspecific(exit_key, (void *)(uintptr_t)(slot + 1));
  }
  return s.fn(s.arg);
}

typedef int (*CreateFn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

__attribute__((noinline)) int pthread_create(pthread_t *t, const pthread_attr_t *attr,
                                             void *(*fn)(void *), void *arg) {
  static CreateFn real;
  if (!real)
    real = (CreateFn)dlsym(RTLD_NEXT, "pthread_create");
  if (!real)
    return EAGAIN;
  if (!kit_native_ready())
    kit_native_init();
  Start *s = (Start *)kit_san_alloc(sizeof *s, 8, 0, false);
  if (!s)
    return EAGAIN;
  *kit_san_chunk_tag((uintptr_t)s) = KIT_SAN_LSAN_IGNORED;
  s->fn = fn;
  s->arg = arg;
  s->tid = __atomic_fetch_add(&next_tid, 1, __ATOMIC_RELAXED);
  kit_san_thread_created(s->tid, my_tid, KIT_HERE_STACK());
  int r = real(t, attr, trampoline, s);
  if (r)
    kit_san_free((uintptr_t)s, 0);
  return r;
}
