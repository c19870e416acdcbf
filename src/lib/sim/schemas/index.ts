/**
 * JSON Schemas (draft-07) for the fields Nodeplane simulates. Used by the manifest checker and by
 * the YAML editor (monaco-yaml `schemas` option), so both flag the same unknown fields.
 */
import type { JsonSchema } from './builders';
import { KIND_SCHEMAS } from './kinds';
import { scenarioSchema } from './scenario';

export type { JsonSchema } from './builders';
export { KIND_SCHEMAS } from './kinds';
export { scenarioSchema, SCENARIO_FAULT_ACTIONS } from './scenario';
export { checkSchema, formatPath, type SchemaIssue, type PathSegment } from './validate';

export function schemaForKind(kind: string): JsonSchema | undefined {
  return KIND_SCHEMAS[kind];
}

const { $id: _id, $schema: _schema, ...embeddedScenario } = scenarioSchema;

/** One schema for any manifest: picks the kind's schema by `kind` (if/then, understood by monaco-yaml). */
export const manifestSchema: JsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://nodeplane.dev/schemas/manifest.json',
  title: 'Kubernetes object (fields simulated by Nodeplane)',
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string', enum: [...Object.keys(KIND_SCHEMAS), 'Scenario'] }
  },
  required: ['apiVersion', 'kind'],
  allOf: [
    ...Object.entries(KIND_SCHEMAS).map(([kind, schema]) => ({
      if: { properties: { kind: { const: kind } }, required: ['kind'] },
      then: schema
    })),
    { if: { properties: { kind: { const: 'Scenario' } }, required: ['kind'] }, then: embeddedScenario }
  ]
};

/** The `schemas` entries for monaco-yaml's `configureMonacoYaml`. */
export function editorSchemas(
  fileMatch: string[] = ['*']
): { uri: string; fileMatch: string[]; schema: JsonSchema }[] {
  return [{ uri: manifestSchema.$id!, fileMatch, schema: manifestSchema }];
}
