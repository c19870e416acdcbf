/**
 * Small builders for the JSON Schemas (draft-07) of the fields Nodeplane simulates. The same
 * objects drive the editor (monaco-yaml) and the manifest checker in `validate.ts`, so only the
 * keywords `validate.ts` understands are used: type, properties, additionalProperties, items,
 * enum, required, minimum, maximum, pattern, format (quantity, duration), description.
 */
export interface JsonSchema {
  type?: JsonType | JsonType[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: (string | number | boolean | null)[];
  required?: string[];
  minimum?: number;
  maximum?: number;
  pattern?: string;
  /** `quantity` (resource.Quantity) or `duration` (Go duration such as 90s). */
  format?: 'quantity' | 'duration';
  default?: unknown;
  $id?: string;
  $schema?: string;
  title?: string;
  allOf?: { if: JsonSchema; then: JsonSchema }[];
  const?: string;
}

type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null';

export const str = (description?: string): JsonSchema => ({
  type: 'string',
  ...(description ? { description } : {})
});
export const int = (description?: string, minimum?: number, maximum?: number): JsonSchema => ({
  type: 'integer',
  ...(description ? { description } : {}),
  ...(minimum !== undefined ? { minimum } : {}),
  ...(maximum !== undefined ? { maximum } : {})
});
export const num = (description?: string): JsonSchema => ({
  type: 'number',
  ...(description ? { description } : {})
});
export const bool = (description?: string): JsonSchema => ({
  type: 'boolean',
  ...(description ? { description } : {})
});
export const oneOf = (values: string[], description?: string): JsonSchema => ({
  type: 'string',
  enum: values,
  ...(description ? { description } : {})
});
/** resource.Quantity: "500m", "2", "128Mi"; YAML may give a plain number. */
export const quantity = (description?: string): JsonSchema => ({
  type: ['string', 'number'],
  format: 'quantity',
  ...(description ? { description } : {})
});
export const duration = (description?: string): JsonSchema => ({
  type: ['string', 'number'],
  format: 'duration',
  ...(description ? { description } : {})
});
/** An IntOrString field such as maxSurge ("25%" or 1) or a targetPort. */
export const intOrString = (description?: string): JsonSchema => ({
  type: ['integer', 'string'],
  ...(description ? { description } : {})
});
export const arr = (items: JsonSchema, description?: string): JsonSchema => ({
  type: 'array',
  items,
  ...(description ? { description } : {})
});
/** A string-keyed map (labels, resource lists): keys are free, values follow `values`. */
export const map = (values: JsonSchema, description?: string): JsonSchema => ({
  type: 'object',
  additionalProperties: values,
  ...(description ? { description } : {})
});
/** A closed object: a field not listed here is "not simulated by Nodeplane". */
export const obj = (
  properties: Record<string, JsonSchema>,
  opts: { required?: string[]; description?: string } = {}
): JsonSchema => ({
  type: 'object',
  ...(opts.description ? { description: opts.description } : {}),
  properties,
  additionalProperties: false,
  ...(opts.required?.length ? { required: opts.required } : {})
});
/** An object whose content Nodeplane accepts as is (status written by components). */
export const open = (description?: string): JsonSchema => ({
  type: 'object',
  ...(description ? { description } : {})
});
