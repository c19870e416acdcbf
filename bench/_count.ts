import { readFileSync } from 'node:fs';
import { createCluster } from '../src/lib/sim/scenario/bootstrap';
import { EndpointSliceKcmController } from '../src/lib/sim/controllers/endpointslice/controller';
import { EndpointsController } from '../src/lib/sim/controllers/endpoint/endpoints_controller';
const counts: Record<string, number> = {};
for (const [n, C] of [['slice', EndpointSliceKcmController], ['ep', EndpointsController]] as const) {
  const orig = (C.prototype as any).sync;
  (C.prototype as any).sync = function (key: string) { counts[n + ' ' + key] = (counts[n + ' ' + key] ?? 0) + 1; return orig.call(this, key); };
}
const { cluster } = createCluster(readFileSync('scenarios/two-hundred-nodes.yaml', 'utf8'), { fileName: 'two-hundred-nodes.yaml' });
let writes = 0; cluster.api.watch('EndpointSlice', () => writes++);
let epw = 0; cluster.api.watch('Endpoints', () => epw++);
cluster.runUntil(60_000);
const pods = cluster.api.list<any>('Pod');
console.log(counts, 'slice writes', writes, 'ep writes', epw, 'pods', pods.length, pods.filter(p => p.metadata.labels?.app === 'web').length);
