/**
 * Kubernetes manifests from YAML: documents become objects after the checks kubectl and the API
 * server do before anything is written: apiVersion/kind set and served, and every field one that
 * Nodeplane simulates (the JSON Schemas in ../schemas).
 */
import { RESOURCES, apiVersionOf } from '../api/resources';
import type { KubeObject } from '../api/types';
import { checkSchema, schemaForKind } from '../schemas';
import { ManifestError, type ManifestIssue } from './errors';
import { parseYamlDocuments, type Position, type YamlDoc } from './yamldocs';

export interface ParsedManifest {
  obj: KubeObject;
  /** 0-based index of the YAML document in the file. */
  doc: number;
  /** 1-based line where the document's content starts. */
  line: number;
  file: string;
  /** Line and column of a field of this object (`spec.containers[0].image`). */
  locate(field: string, opts?: { key?: boolean }): Position;
}

/** Check one parsed document as a Kubernetes object; returns the object or adds issues. */
export function checkManifestDoc(
  d: YamlDoc,
  file: string,
  issues: ManifestIssue[]
): ParsedManifest | undefined {
  const at = (path: string, message: string, key = false): ManifestIssue => ({
    file,
    ...(path ? d.locate(path, { key }) : d.start),
    path,
    message
  });
  const v = d.value;
  if (!v || typeof v !== 'object' || Array.isArray(v)) {
    issues.push(at('', 'expected a Kubernetes object: a mapping with apiVersion, kind and metadata'));
    return undefined;
  }
  const o = v as Record<string, unknown>;
  const missing = [!o.apiVersion && 'apiVersion not set', !o.kind && 'kind not set'].filter(
    Boolean
  ) as string[];
  if (missing.length) {
    issues.push(at('', `error validating data: [${missing.join(', ')}]`));
    return undefined;
  }
  const kind = String(o.kind);
  const apiVersion = String(o.apiVersion);
  const served = RESOURCES.find((r) => r.kind === kind && apiVersionOf(r) === apiVersion);
  const schema = schemaForKind(kind);
  if (!served || !schema) {
    const known = RESOURCES.find((r) => r.kind === kind);
    issues.push(
      at(
        known && schema ? 'apiVersion' : 'kind',
        known && schema
          ? `no matches for kind "${kind}" in version "${apiVersion}" (use apiVersion: ${apiVersionOf(known)})`
          : `no matches for kind "${kind}" in version "${apiVersion}"`
      )
    );
    return undefined;
  }
  const before = issues.length;
  for (const i of checkSchema(v, schema)) {
    const key = i.kind === 'unknown';
    const p = d.locate(i.kind === 'required' ? i.path.slice(0, -1) : i.path, { key });
    issues.push({ file, ...p, path: i.field, message: i.message });
  }
  if (issues.length > before) return undefined;
  const metadata = (o.metadata ?? {}) as KubeObject['metadata'];
  if (!metadata.name && !metadata.generateName) {
    issues.push(at('metadata', 'metadata.name: Required value: name or generateName is required'));
    return undefined;
  }
  return {
    obj: v as KubeObject,
    doc: d.index,
    line: d.start.line,
    file,
    locate: (field, opts) => d.locate(field, opts)
  };
}

/**
 * Parse a YAML file of Kubernetes objects. Throws ManifestError listing every problem (file, line,
 * column, field) when any document is malformed, of an unknown kind, or has unknown fields.
 */
export function parseManifests(text: string, fileName: string): { objects: ParsedManifest[] } {
  const { docs, issues } = parseYamlDocuments(text, fileName);
  const objects: ParsedManifest[] = [];
  for (const d of docs) {
    const m = checkManifestDoc(d, fileName, issues);
    if (m) objects.push(m);
  }
  if (issues.length) throw new ManifestError(issues);
  return { objects };
}
