/**
 * The lesson and pack validators with their types. They are Ajv's standalone output
 * (validators.generated.ts, from scripts/gen-validators.ts): plain functions, no `new Function`, so
 * the browser under the app's Content-Security-Policy and Node run the very same checks.
 */
import type { ErrorObject } from 'ajv';
import type { PackManifest } from '../packs/format';
import type { LessonSpec, LessonText } from './format';
import * as generated from './validators.generated';

export interface Validator<T> {
  (value: unknown): value is T;
  errors?: ErrorObject[] | null;
}

export const validateSpec = generated.validateSpec as Validator<LessonSpec>;
export const validateText = generated.validateText as Validator<Omit<LessonText, 'body' | 'bodyLine'>>;
export const validatePackManifest = generated.validatePack as Validator<PackManifest>;
