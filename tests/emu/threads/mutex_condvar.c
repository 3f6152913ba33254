/* threads: a bounded queue under contention (mutex + two condition variables) */
#include <pthread.h>
#include <stdio.h>

enum { PRODUCERS = 4, CONSUMERS = 4, ITEMS = 20000, CAP = 8 };
static int queue[CAP], head, count, done_producers;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER, not_empty = PTHREAD_COND_INITIALIZER;
static long consumed_sum[CONSUMERS];

static void *producer(void *arg) {
  int id = (int)(long)arg;
  for (int i = 0; i < ITEMS; i++) {
    pthread_mutex_lock(&lock);
    while (count == CAP) pthread_cond_wait(&not_full, &lock);
    queue[(head + count++) % CAP] = id * ITEMS + i;
    pthread_cond_signal(&not_empty);
    pthread_mutex_unlock(&lock);
  }
  pthread_mutex_lock(&lock);
  done_producers++;
  pthread_cond_broadcast(&not_empty);
  pthread_mutex_unlock(&lock);
  return NULL;
}

static void *consumer(void *arg) {
  long *sum = arg;
  for (;;) {
    pthread_mutex_lock(&lock);
    while (count == 0 && done_producers < PRODUCERS) pthread_cond_wait(&not_empty, &lock);
    if (count == 0) {
      pthread_mutex_unlock(&lock);
      return NULL;
    }
    *sum += queue[head];
    head = (head + 1) % CAP, count--;
    pthread_cond_signal(&not_full);
    pthread_mutex_unlock(&lock);
  }
}

int main(void) {
  pthread_t p[PRODUCERS], c[CONSUMERS];
  for (long i = 0; i < CONSUMERS; i++) pthread_create(&c[i], NULL, consumer, &consumed_sum[i]);
  for (long i = 0; i < PRODUCERS; i++) pthread_create(&p[i], NULL, producer, (void *)i);
  for (int i = 0; i < PRODUCERS; i++) pthread_join(p[i], NULL);
  for (int i = 0; i < CONSUMERS; i++) pthread_join(c[i], NULL);
  long total = 0;
  for (int i = 0; i < CONSUMERS; i++) total += consumed_sum[i];
  long n = (long)PRODUCERS * ITEMS;
  printf("consumed %ld items, sum %ld (expected %ld)\n", n, total, n * (n - 1) / 2);
  return total != n * (n - 1) / 2;
}
