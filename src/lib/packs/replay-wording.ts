/**
 * The replay's verdicts (lessons/session.ts, packs/replay.ts) as issue codes, so a page words them in
 * the reader's language. Kept apart from the replay itself so a page can use it without loading the
 * simulator.
 */
import type { LessonIssue } from '../lessons/format';
import { issueMessage, say, type IssueArgs } from '../lessons/issue-text';

/**
 * A replay verdict's words (lessons/session.ts and packs/replay.ts) with their issue code, so the
 * page says them in the reader's language; anything else (a kubectl error of a solution step) stays
 * as it is.
 */
export function replayWording(message: string): Pick<LessonIssue, 'message' | 'code' | 'args'> {
  const m =
    /^(?:variant "([^"]+)": )?(?:task "([^"]+)" already holds in the starting state: the learner would have nothing to do|not done after replaying the solution for (\S+?)(?:: (.*))?)$/s.exec(
      message
    );
  if (!m) return { message };
  const [, variant, task, budget, detail] = m;
  const said = task
    ? variant
      ? say('variantAlreadyHolds', { variant, task })
      : say('alreadyHolds', { task })
    : variant
      ? detail
        ? say('variantNotDoneDetail', { variant, budget, detail })
        : say('variantNotDone', { variant, budget })
      : detail
        ? say('notDoneDetail', { budget, detail })
        : say('notDone', { budget });
  return said.message === message ? said : { message };
}

/**
 * A replay problem or task reason in the reader's language: a leading `<folder>/lesson.yaml: ` stays
 * as it is (the place), the verdict after it is translated when it is one of the replay's own.
 */
export function replayText(message: string, translate: (key: string, args: IssueArgs) => string): string {
  const m = /^(\S+\/lesson\.yaml: )?([\s\S]*)$/.exec(message)!;
  return (m[1] ?? '') + issueMessage(replayWording(m[2]), translate);
}
