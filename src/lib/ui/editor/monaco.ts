/**
 * Monaco with the YAML language and monaco-yaml, loaded only by a dynamic import from the editor
 * component (never during prerender). Uses the slim `monaco-editor/editor` API.
 */
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/register.all';
import 'monaco-editor/languages/definitions/yaml/register';
import 'monaco-editor/languages/definitions/markdown/register';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';
import YamlWorker from '$lib/workers/yaml.worker?worker';
import { configureMonacoYaml, type SchemasSettings } from 'monaco-yaml';
import { editorSchemas } from '$lib/sim/observe/schemas';
import { lessonSchemaSettings } from '$lib/ui/author/schemas';

globalThis.MonacoEnvironment = {
  getWorker: (_id: string, label: string) => (label === 'yaml' ? new YamlWorker() : new EditorWorker())
};

interface LegacyWorkerOptions {
  worker?: unknown;
  moduleId?: string;
  label?: string;
  createData?: unknown;
  host?: unknown;
  keepIdleModels?: boolean;
}

// monaco >0.52 expects createWebWorker({ worker }); monaco-yaml 5.5 (monaco-worker-manager 2)
// still passes { label, moduleId, createData }, so translate the old call the way monaco's own
// language workers do.
const original = monaco.editor.createWebWorker;
(monaco.editor as unknown as { createWebWorker: (o: LegacyWorkerOptions) => unknown }).createWebWorker = (
  opts: LegacyWorkerOptions
) => {
  if (opts.worker) return original(opts as Parameters<typeof original>[0]);
  const worker = Promise.resolve(
    globalThis.MonacoEnvironment!.getWorker!(
      opts.moduleId ?? 'workerMain.js',
      opts.label ?? 'monaco-editor-worker'
    )
  ).then((w) => {
    w.postMessage('ignore');
    w.postMessage(opts.createData);
    return w;
  });
  return original({ worker, host: opts.host, keepIdleModels: opts.keepIdleModels } as Parameters<
    typeof original
  >[0]);
};

// One schema for any manifest: it picks the kind's schema from `kind:`, so an editor model
// validates whatever kind it holds, with the same unknown-field rules as kubectl apply here. The
// authoring view's lesson.yaml files (file:///lessons/<dir>/lesson.yaml) get the lesson schema.
configureMonacoYaml(monaco, {
  enableSchemaRequest: false,
  validate: true,
  hover: true,
  completion: true,
  schemas: [
    ...editorSchemas(['**/*.yaml', '!lessons/*/lesson.yaml']),
    lessonSchemaSettings()
  ] as SchemasSettings[]
});

export { monaco };
