/**
 * mulberry32: a small, fast seeded PRNG, the same on every platform. The one source of
 * deterministic "randomness" for generated data and pictures (the same seed always gives the same
 * sequence); never for secrets.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
