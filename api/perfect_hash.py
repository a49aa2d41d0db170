"""A minimal perfect hash ("hash and displace") for the function-name lookup.

The generated C++ computes the same hash; both sides take their definition of
the hash from HASH_CPP / fnv1a below, so they cannot drift apart.
"""

from __future__ import annotations

HASH_CPP = """\
constexpr uint32_t HashName(const char* s, uint32_t seed) {
  uint32_t h = 2166136261u ^ seed;
  for (; *s; ++s) h = (h ^ static_cast<unsigned char>(*s)) * 16777619u;
  return h;
}"""


def fnv1a(s: str, seed: int) -> int:
    h = 2166136261 ^ seed
    for c in s.encode():
        h = ((h ^ c) * 16777619) & 0xFFFFFFFF
    return h


def build(keys: list[str]) -> tuple[list[int], list[int]]:
    """Returns (seeds per bucket, slot -> key index or -1).

    Lookup: bucket = fnv1a(k, 0) % len(seeds); slot = fnv1a(k, seeds[bucket]) % len(slots).
    """
    n_buckets = max(1, len(keys) // 3)
    n_slots = 1
    while n_slots < len(keys) * 1.25:
        n_slots *= 2
    buckets: list[list[int]] = [[] for _ in range(n_buckets)]
    for i, k in enumerate(keys):
        buckets[fnv1a(k, 0) % n_buckets].append(i)
    seeds = [0] * n_buckets
    slots = [-1] * n_slots
    for b in sorted(range(n_buckets), key=lambda b: -len(buckets[b])):
        if not buckets[b]:
            continue
        seed = 1
        while True:
            wanted = [fnv1a(keys[i], seed) % n_slots for i in buckets[b]]
            if len(set(wanted)) == len(wanted) and all(slots[s] == -1 for s in wanted):
                break
            seed += 1
        seeds[b] = seed
        for i, s in zip(buckets[b], wanted):
            slots[s] = i
    return seeds, slots
