/**
 * Manifest text → objects for `apply -f` / `create -f`, through the project's manifest parser
 * (multi-document YAML, schema checks, a line and column for every problem).
 */
import type { KubeObject } from '../api/types';
import { ManifestError, parseManifests as parseWithPositions } from '../manifests';
import { CommandError } from './context';

export function parseManifests(text: string, source: string): KubeObject[] {
  try {
    return parseWithPositions(text, source).objects.map((m) => m.obj);
  } catch (e) {
    if (e instanceof ManifestError) {
      throw new CommandError(
        e.issues.map((i) => `error: ${i.file}:${i.line}:${i.column}: ${i.message}`).join('\n')
      );
    }
    throw e;
  }
}
