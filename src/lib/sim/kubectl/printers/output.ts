/** `-o yaml|json|name|jsonpath=…|custom-columns=…` output (cli-runtime printers). */
import { stringify } from 'yaml';
import type { KubeObject } from '../../api/types';
import type { ResourceInfo } from '../../api/resources';
import { CommandError, qualified } from '../context';
import { JsonPathError, jsonpath, relaxed, select, formatValue } from '../jsonpath';
import { GET_TABLE, tabbed } from '../tabwriter';

/** sigs.k8s.io/yaml marshals through JSON then go-yaml: keys sorted, YAML 1.1 quoting. */
export function toYaml(obj: unknown): string {
  return stringify(obj, { indentSeq: false, sortMapEntries: true, lineWidth: 0, version: '1.1' });
}

/** Go's json.MarshalIndent with four spaces (kubectl -o json). */
export function toJson(obj: unknown): string {
  return JSON.stringify(obj, null, 4) + '\n';
}

export function asList(items: KubeObject[]): Record<string, unknown> {
  return { apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } };
}

export type OutputKind =
  | { kind: 'table'; wide: boolean }
  | { kind: 'yaml' }
  | { kind: 'json' }
  | { kind: 'name' }
  | { kind: 'jsonpath'; template: string }
  | { kind: 'custom-columns'; spec: string };

export function parseOutput(o: string | undefined): OutputKind {
  if (!o) return { kind: 'table', wide: false };
  if (o === 'wide') return { kind: 'table', wide: true };
  if (o === 'yaml' || o === 'json' || o === 'name') return { kind: o };
  const m = /^(jsonpath|custom-columns)=(.*)$/s.exec(o);
  if (m && m[1] === 'jsonpath') return { kind: 'jsonpath', template: m[2] };
  if (m) return { kind: 'custom-columns', spec: m[2] };
  throw new CommandError(
    `error: unable to match a printer suitable for the output format "${o}", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml`
  );
}

/**
 * Print objects in a non-table format. `single` is true when one object was asked for by
 * name: kubectl then prints the object itself instead of a List.
 */
export function printObjects(
  out: OutputKind,
  items: { r: ResourceInfo; obj: KubeObject }[],
  single: boolean
): string {
  const objs = items.map((i) => i.obj);
  const data = single && objs.length === 1 ? objs[0] : asList(objs);
  switch (out.kind) {
    case 'yaml':
      return toYaml(data);
    case 'json':
      return toJson(data);
    case 'name':
      return items.map((i) => `${qualified(i.r)}/${i.obj.metadata.name}\n`).join('');
    case 'jsonpath':
      try {
        return jsonpath(out.template, data);
      } catch (e) {
        throw new CommandError(`error: error parsing jsonpath ${out.template}, ${(e as Error).message}`);
      }
    case 'custom-columns':
      return customColumns(out.spec, objs);
    default:
      return '';
  }
}

export function customColumns(spec: string, objs: KubeObject[]): string {
  const cols = spec.split(',').map((c) => {
    const i = c.indexOf(':');
    if (i < 0) {
      throw new CommandError(`error: expected <header>:<json-path-expr>, got ${JSON.stringify(c)}`);
    }
    return { header: c.slice(0, i), path: relaxed(c.slice(i + 1)) };
  });
  let text = cols.map((c) => c.header).join('\t') + '\n';
  for (const o of objs) {
    text +=
      cols
        .map((c) => {
          try {
            const v = select(o, c.path);
            return v.length ? v.map(formatValue).join(',') : '<none>';
          } catch (e) {
            if (e instanceof JsonPathError) return '<none>';
            throw e;
          }
        })
        .join('\t') + '\n';
  }
  return tabbed(text, GET_TABLE);
}
