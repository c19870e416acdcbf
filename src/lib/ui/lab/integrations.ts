/**
 * The example scenarios shipped in `scenarios/`, as text for the sandbox's picker (the lab session
 * in the worker parses and runs them).
 */

export interface ScenarioFile {
  fileName: string;
  text: string;
}

const scenarioTexts = import.meta.glob('/scenarios/*.yaml', {
  query: '?raw',
  import: 'default',
  eager: true
}) as Record<string, string>;

/** Example scenarios shipped in `scenarios/`, sorted by file name. */
export function exampleScenarios(): ScenarioFile[] {
  return Object.entries(scenarioTexts)
    .map(([path, text]) => ({ fileName: path.split('/').pop() ?? path, text }))
    .sort((a, b) => (a.fileName < b.fileName ? -1 : 1));
}
