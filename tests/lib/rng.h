/* tests/lib/rng.h — the tests' seeded random numbers (splitmix64): the same
 * seed gives the same sequence on every host, so a failing seed reruns. */
#ifndef KIT_TESTLIB_RNG_H
#define KIT_TESTLIB_RNG_H

#include <stdbool.h>
#include <stdint.h>

typedef struct Rng {
  uint64_t s;
} Rng;

static inline uint64_t rng_next(Rng *r) {
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
/* uniform in [0, n); 0 when n is 0 */
static inline uint32_t rng_below(Rng *r, uint32_t n) { return n ? (uint32_t)(rng_next(r) % n) : 0; }
/* true with probability pct/100 */
static inline bool rng_chance(Rng *r, unsigned pct) { return rng_below(r, 100) < pct; }

#endif
