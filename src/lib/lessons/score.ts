/**
 * The score of a solved challenge, from 0 to 100 (docs/lesson-format.md, "Challenges"):
 *
 *   score = 100 − 10 × hints − virtual penalty − wall penalty, at least 0; 0 if the solution was shown
 *   virtual penalty = 1 per full virtual minute after the first 5, at most 20
 *   wall penalty    = 1 per full minute of wall time after the first 10, at most 30
 *
 * Hints cost the most because they replace the diagnosis the challenge is about; time counts less,
 * since some faults take minutes of virtual time to clear (DiskPressure waits out its 5m transition).
 */
export interface ScoreInput {
  hints: number;
  /** Virtual ms on the lab clock when the last task was done. */
  virtualMs: number;
  /** Wall-clock ms spent on the page. */
  wallMs: number;
  solutionViewed: boolean;
}

export interface Score {
  total: number;
  hints: number;
  virtual: number;
  wall: number;
}

export const SCORE_RULES = {
  max: 100,
  perHint: 10,
  virtualFreeMin: 5,
  virtualMax: 20,
  wallFreeMin: 10,
  wallMax: 30
} as const;

const MIN = 60_000;

export function challengeScore(i: ScoreInput): Score {
  const r = SCORE_RULES;
  const hints = r.perHint * Math.max(0, Math.floor(i.hints));
  const virtual = Math.min(r.virtualMax, Math.max(0, Math.floor(i.virtualMs / MIN) - r.virtualFreeMin));
  const wall = Math.min(r.wallMax, Math.max(0, Math.floor(i.wallMs / MIN) - r.wallFreeMin));
  const total = i.solutionViewed ? 0 : Math.max(0, r.max - hints - virtual - wall);
  return { total, hints, virtual, wall };
}
