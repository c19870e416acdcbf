/**
 * Troubleshooting challenges: a lesson whose `spec.challenge` lists variants, each breaking the
 * cluster in its own way. An attempt draws one variant from a seed with the simulator's seeded
 * generator, so the same seed always gives the same fault (a teacher pins it with `?seed=42`), and
 * `resolveVariant` turns the lesson into an ordinary lesson of that variant: the challenge
 * question's answer, the replaced checks, the variant's hints and its setup and solution steps.
 * Runs in the browser (no validator imports).
 */
import { Random } from '../sim/engine/random';
import type { Language, Lesson, LessonSpec, LessonText } from './format';

/** Seeds are unsigned 32-bit integers. */
export const MAX_SEED = 0xffffffff;

/** A seed from text (`?seed=42`): a whole number in 0..2^32-1, else undefined. */
export function parseSeed(text: string | null | undefined): number | undefined {
  if (text === null || text === undefined || !/^\d{1,10}$/.test(text.trim())) return undefined;
  const n = Number(text.trim());
  return n <= MAX_SEED ? n : undefined;
}

/** The variant drawn for a seed: the first number of the seeded generator picks one. */
export function chooseVariant(lesson: Pick<Lesson, 'spec'>, seed: number): string {
  const variants = lesson.spec.spec.challenge?.variants ?? [];
  if (!variants.length) throw new Error('this lesson is not a challenge');
  return variants[new Random(seed >>> 0).int(variants.length)].id;
}

/** The lesson as played with one variant. Throws for an unknown variant id. */
export function resolveVariant(lesson: Lesson, variantId: string, seed?: number): Lesson {
  const ch = lesson.spec.spec.challenge;
  if (!ch) throw new Error(`lesson ${lesson.slug} is not a challenge`);
  const v = ch.variants.find((x) => x.id === variantId);
  if (!v)
    throw new Error(
      `lesson ${lesson.slug} has no variant "${variantId}" (variants: ${ch.variants.map((x) => x.id).join(', ')})`
    );
  const spec: LessonSpec = {
    ...lesson.spec,
    spec: {
      ...lesson.spec.spec,
      questions: (lesson.spec.spec.questions ?? []).map((q) =>
        q.id === ch.question ? { ...q, answer: v.answer } : q
      ),
      tasks: lesson.spec.spec.tasks.map((t) => (v.checks[t.id] ? { ...t, check: v.checks[t.id] } : t)),
      solution: [...(lesson.spec.spec.solution ?? []), ...v.solution]
    }
  };
  const text = Object.fromEntries(
    (Object.entries(lesson.text) as [Language, LessonText][]).map(([lang, tx]) => {
      const own = tx.variants?.[v.id]?.hints ?? {};
      const tasks = Object.fromEntries(
        Object.entries(tx.tasks).map(([id, task]) => [id, own[id] ? { ...task, hints: own[id] } : task])
      );
      return [lang, { ...tx, tasks }];
    })
  ) as Record<Language, LessonText>;
  return {
    ...lesson,
    spec,
    text,
    variant: {
      id: v.id,
      ...(seed !== undefined ? { seed } : {}),
      setup: v.setup,
      gated: Object.keys(v.checks)
    }
  };
}

/** The explanation shown after the challenge is solved, in a language. */
export function variantExplanation(lesson: Lesson, lang: Language): string | undefined {
  return lesson.variant ? lesson.text[lang].variants?.[lesson.variant.id]?.explanation : undefined;
}
