import './lib/env.mts';
import { credentialType, runNode } from '../test/harness/engine.mts';
import { startRemoteSandbox } from './lib/remoteSandbox.mts';
import { median } from './lib/report.mts';
const sb = await startRemoteSandbox({ dataset: { videos: 100, assets: 10000 } });
const credentials = { apiKey: sb.keys.user, baseUrl: sb.baseUrl };
const run = async () => { const t = performance.now(); const r = await runNode({ parameters: { resource: 'asset', operation: 'getAll', returnAll: true }, credentials }); if (r.items.length !== 10000) throw new Error('x'); return performance.now() - t; };
const type = await credentialType();
const original = type.properties;
const noRegex = original.map((p) => {
  const s = JSON.stringify(p.displayOptions ?? {});
  return s.includes('regex') ? { ...p, displayOptions: { show: { baseUrl: [{ _cnd: { startsWith: 'http://' } }] } } } : p;
});
for (let i = 0; i < 3; i++) await run();
const a: number[] = [], b: number[] = [];
for (let i = 0; i < 10; i++) {
  type.properties = original; a.push(await run());
  type.properties = noRegex; b.push(await run());
}
console.log('with regex notices', median(a), 'without', median(b));
await sb.close();
