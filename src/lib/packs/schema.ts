/**
 * JSON Schema of `pack.yaml`, the manifest at the root of a lesson pack. Published as
 * `schemas/pack.schema.json`; the browser and the CLI validate with the same schema, compiled
 * ahead of time (src/lib/lessons/validators.generated.ts).
 */
const text = { type: 'string', minLength: 1, maxLength: 200 };

/** semver.org's regular expression for a version (2.0.0). */
export const SEMVER_RE =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export const packManifestSchema = {
  $id: 'https://nodeplane.dev/schemas/pack.json',
  title: 'Nodeplane lesson pack (pack.yaml)',
  type: 'object',
  required: ['id', 'title', 'author', 'languages', 'version'],
  additionalProperties: false,
  properties: {
    id: {
      description:
        'The pack id: lowercase letters, digits and dashes. A newer version with the same id replaces the pack.',
      type: 'string',
      maxLength: 63,
      pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'
    },
    title: {
      description: 'The title on the roadmap: one string, or one per language.',
      oneOf: [
        text,
        {
          type: 'object',
          minProperties: 1,
          additionalProperties: false,
          properties: { en: text, ru: text }
        }
      ]
    },
    author: { ...text, description: 'Who wrote the pack.' },
    languages: {
      description:
        'The languages every lesson of the pack is written in; the first is shown where a lesson has no text in the learner’s language.',
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: { enum: ['en', 'ru'] }
    },
    version: {
      description: 'Semantic version (semver.org), e.g. 1.2.0.',
      type: 'string',
      maxLength: 64,
      pattern: SEMVER_RE.source
    }
  }
};
