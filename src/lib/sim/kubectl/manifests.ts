/**
 * Manifest text → objects for `apply -f` / `create -f`. Kept in one place so the project's
 * line-aware manifest parser can replace it.
 */
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../api/types';
import { CommandError } from './context';

export function parseManifests(text: string, source: string): KubeObject[] {
  const out: KubeObject[] = [];
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      return flatten(JSON.parse(trimmed), source);
    } catch (e) {
      throw new CommandError(`error: error parsing ${source}: ${(e as Error).message}`);
    }
  }
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length) {
      const e = doc.errors[0];
      const line = e.linePos?.[0]?.line ?? 0;
      throw new CommandError(
        `error: error parsing ${source}: error converting YAML to JSON: yaml: line ${line}: ${e.message.split('\n')[0]}`
      );
    }
    const v = doc.toJS();
    if (v === null || v === undefined) continue;
    out.push(...flatten(v, source));
  }
  return out;
}

function flatten(v: unknown, source: string): KubeObject[] {
  if (!v || typeof v !== 'object' || Array.isArray(v)) {
    throw new CommandError(`error: error validating "${source}": error validating data: invalid object`);
  }
  const o = v as KubeObject;
  if (o.kind === 'List' && Array.isArray(o.items))
    return (o.items as unknown[]).flatMap((i) => flatten(i, source));
  if (!o.apiVersion) {
    throw new CommandError(`error: error validating "${source}": error validating data: apiVersion not set`);
  }
  if (!o.kind) {
    throw new CommandError(`error: error validating "${source}": error validating data: kind not set`);
  }
  return [o];
}
