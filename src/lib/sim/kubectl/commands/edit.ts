/**
 * `kubectl edit TYPE NAME` (and `TYPE/NAME`): the console opens the live object, as
 * `kubectl get -o yaml` prints it under kubectl's comment header, in the lab's editor; saving it
 * comes back through `saveEdit`, which does what kubectl's edit does with the saved file: strip the
 * comments, cancel when nothing changed, refuse a changed apiVersion, kind or name, compute a patch
 * from the opened object to the saved one and send it to the API server. Only the fields the
 * learner changed are sent, so the kubelet's status updates in the meantime do not conflict; a
 * changed `metadata.resourceVersion` is sent too and the API server answers 409 Conflict when the
 * object moved on since, as it does for any update that names a resourceVersion.
 */
import { parse } from 'yaml';
import { lookupResource, type ResourceInfo } from '../../api/resources';
import { isApiError } from '../../api/errors';
import type { KubeObject } from '../../api/types';
import type { Cluster } from '../../cluster';
import { parseFlags, str } from '../args';
import type { ConsoleResult } from '../console';
import { apiGet, CommandError, errorText, KUBECTL, resolveResource, type KubectlContext } from '../context';
import { toYaml } from '../printers/output';

/** The object an edit is about. */
export interface EditTarget {
  kind: string;
  namespace?: string;
  name: string;
}

/** What `kubectl edit` writes above the object (editoptions.go). */
export const EDIT_HEADER = `# Please edit the object below. Lines beginning with a '#' will be ignored,
# and an empty file will abort the edit. If an error occurs while saving this file will be
# reopened with the relevant failures.
#
`;

/** `deployments.apps`: how kubectl's edit names the resource in its messages. */
function resourceString(r: ResourceInfo): string {
  return r.group ? `${r.plural}.${r.group}` : r.plural;
}

/** `deployment.apps/web edited`: the resource as kubectl's printer names it. */
function printedId(r: ResourceInfo, name: string): string {
  return `${r.group ? `${r.singular}.${r.group}` : r.singular}/${name}`;
}

/** The YAML the editor opens for a live object. */
export function editText(obj: KubeObject): string {
  return EDIT_HEADER + toYaml(obj);
}

export function edit(ctx: KubectlContext, argv: string[]): ConsoleResult {
  const p = parseFlags(argv, [
    { name: 'output', short: 'o', value: true },
    { name: 'save-config' },
    { name: 'validate', value: true }
  ]);
  const out = str(p, 'output');
  if (out !== undefined && out !== 'yaml') {
    throw new CommandError(
      `error: the edit mode "${out}" is not available here: the lab's editor edits YAML (-o yaml)`
    );
  }
  let [type, name] = p.positional;
  if (type?.includes('/')) [type, name] = type.split('/', 2);
  if (!type) {
    throw new CommandError(
      "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'"
    );
  }
  const r = resolveResource(type);
  if (!name) {
    throw new CommandError(
      `error: edit in the lab opens one object: name it, for example: kubectl edit ${r.singular} <name>`
    );
  }
  const namespace = r.namespaced ? (str(p, 'namespace') ?? 'default') : undefined;
  const obj = apiGet(ctx, r, namespace, name);
  return {
    stdout: '',
    stderr: '',
    exitCode: 0,
    action: {
      type: 'edit',
      yaml: editText(obj),
      ref: { kind: r.kind, ...(namespace ? { namespace } : {}), name }
    }
  };
}

/** Lines that are comments (or blank) only: kubectl's StripComments. */
function stripComments(text: string): string {
  return text
    .split('\n')
    .filter((l) => !l.trimStart().startsWith('#'))
    .join('\n');
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A JSON merge patch (RFC 7386) that turns `from` into `to`: changed keys, `null` for removed ones. */
export function diffPatch(from: unknown, to: unknown): unknown {
  const isMap = (v: unknown): v is Record<string, unknown> =>
    !!v && typeof v === 'object' && !Array.isArray(v);
  if (!isMap(from) || !isMap(to)) return to;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(from)) if (!(k in to)) out[k] = null;
  for (const [k, v] of Object.entries(to)) {
    if (!(k in from)) out[k] = v;
    else if (!deepEqual(from[k], v)) {
      out[k] = isMap(from[k]) && isMap(v) ? diffPatch(from[k], v) : v;
    }
  }
  return out;
}

/** The YAML parser's first message and line, as the lab shows a syntax error. */
export interface EditSyntaxError {
  line: number;
  message: string;
}

export interface EditOutcome extends ConsoleResult {
  /** The save changed the object. */
  changed: boolean;
  /** The saved file had a YAML syntax error (kubectl reopens the file with it). */
  syntax?: EditSyntaxError;
  /** API field errors, `field: message`, one each (kubectl writes them into the reopened file). */
  causes?: string[];
}

function parseEdited(text: string): { value?: unknown; syntax?: EditSyntaxError } {
  try {
    return { value: parse(text, { uniqueKeys: true, prettyErrors: true }) };
  } catch (e) {
    const err = e as Error & { linePos?: { line: number; col: number }[] };
    const message = err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    return { syntax: { line: err.linePos?.[0]?.line ?? 1, message } };
  }
}

/**
 * Save an edited object: `original` is the text the editor opened, `edited` what the learner
 * saved. Returns what kubectl prints (`deployment.apps/web edited`, `Edit cancelled, no changes
 * made.`, `error: deployments.apps "web" is invalid` and the field errors).
 */
export function saveEdit(
  cluster: Cluster,
  target: EditTarget,
  original: string,
  edited: string
): EditOutcome {
  const r = lookupResource(target.kind);
  if (!r) throw new Error(`edit: unknown kind "${target.kind}"`);
  const res = resourceString(r);
  const done = (o: Partial<EditOutcome>): EditOutcome => ({
    stdout: '',
    stderr: '',
    exitCode: 0,
    changed: false,
    ...o
  });
  const body = stripComments(edited);
  if (!body.trim()) return done({ stderr: 'Edit cancelled, saved file was empty.\n' });
  const before = parseEdited(stripComments(original)).value;
  const after = parseEdited(body);
  if (after.syntax) {
    return done({
      stderr: `error: the edited file had a syntax error: ${after.syntax.message} (line ${after.syntax.line})\n`,
      exitCode: 1,
      syntax: after.syntax
    });
  }
  if (deepEqual(before, after.value)) return done({ stderr: 'Edit cancelled, no changes made.\n' });
  const b = before as KubeObject;
  const a = after.value as KubeObject;
  if (
    !a ||
    typeof a !== 'object' ||
    a.apiVersion !== b.apiVersion ||
    a.kind !== b.kind ||
    a.metadata?.name !== b.metadata?.name
  ) {
    return done({ stderr: 'error: At least one of apiVersion, kind and name was changed\n', exitCode: 1 });
  }
  const patch = diffPatch(b, a);
  try {
    cluster.api.patch(r.kind, target.namespace, target.name, patch as Record<string, unknown>, KUBECTL);
  } catch (e) {
    if (isApiError(e, 'Invalid')) {
      return done({
        stderr:
          `error: ${res} "${target.name}" is invalid\n` +
          e.causes.map((c) => `* ${c.field}: ${c.message}\n`).join(''),
        exitCode: 1,
        causes: e.causes.map((c) => `${c.field}: ${c.message}`)
      });
    }
    if (isApiError(e, 'NotFound')) {
      return done({
        stderr: `error: ${res} "${target.name}" could not be found on the server\n`,
        exitCode: 1
      });
    }
    const msg = isApiError(e) ? e.message : errorText(e).replace(/^error: /, '');
    return done({ stderr: `error: ${res} "${target.name}" could not be patched: ${msg}\n`, exitCode: 1 });
  }
  return done({ stdout: `${printedId(r, target.name)} edited\n`, changed: true });
}
