/**
 * A challenge lesson's attempt on a page (the lesson page and its embedded form): the variant
 * drawn from a seed. The seed is the link's `?seed=` (a teacher pins it), else the one saved with
 * this attempt (a reload keeps the same fault), else a new random one.
 */
import { chooseVariant, parseSeed, resolveVariant } from '$lib/lessons/challenge';
import type { Lesson } from '$lib/lessons/format';
import { getProgress, storageAvailable } from '$lib/persist';
import { readState } from './progress';

export interface Attempt {
  lesson: Lesson;
  seed: number;
  /** Start with no saved progress (a new challenge or another seed). */
  fresh: boolean;
  /** The seed came from the link. */
  pinned: boolean;
}

function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

export class ChallengeAttempt {
  current = $state<Attempt | undefined>();

  constructor(readonly lesson: Lesson) {}

  private start(seed: number, fresh: boolean, pinned: boolean): void {
    const lesson = resolveVariant(this.lesson, chooseVariant(this.lesson, seed), seed);
    this.current = { lesson, seed, fresh, pinned };
  }

  /** Draw the first attempt from the link's `seed` parameter (or the saved or a random seed). */
  async begin(seedParam: string | null): Promise<void> {
    const pinned = parseSeed(seedParam);
    const stored = storageAvailable()
      ? await getProgress(this.lesson.slug).then(
          (r) => readState(r).challenge?.seed,
          () => undefined
        )
      : undefined;
    if (pinned !== undefined) this.start(pinned, stored !== pinned, true);
    else if (stored !== undefined) this.start(stored, false, false);
    else this.start(randomSeed(), true, false);
  }

  /** Draw another variant than the current one when the lesson has more than one. */
  another(): void {
    const current = this.current?.lesson.variant?.id;
    let seed = randomSeed();
    for (let i = 0; i < 16 && chooseVariant(this.lesson, seed) === current; i++) seed = randomSeed();
    this.start(seed, true, false);
  }
}
