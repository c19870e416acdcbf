import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scenarioSchema } from '../sim/schemas/scenario';
import { packManifestSchema } from '../packs/schema';
import { checkSchema, lessonSpecSchema, lessonTextSchema } from './schema';

// The JSON Schema files teachers point their editor at (`# yaml-language-server: $schema=...`)
// must be exactly the schemas the validator uses. Regenerate with UPDATE_SCHEMAS=1.
const files: [string, unknown][] = [
  ['schemas/lesson.schema.json', { ...lessonSpecSchema, $defs: { check: checkSchema } }],
  ['schemas/lesson-text.schema.json', lessonTextSchema],
  ['schemas/scenario.schema.json', scenarioSchema],
  ['schemas/pack.schema.json', packManifestSchema]
];

describe('published JSON Schemas', () => {
  it.each(files)('%s matches the schema the validator uses', async (path, schema) => {
    const text = JSON.stringify(schema, null, 2) + '\n';
    if (process.env.UPDATE_SCHEMAS) (await import('node:fs')).writeFileSync(path, text);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });
});
