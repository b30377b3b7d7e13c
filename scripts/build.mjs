// One build for every part: esbuild bundles the Node-side entries (Electron main, headless web
// bridge, preload, the local service); Vite builds the React renderer.
import { build as esbuild } from 'esbuild';
import { build as viteBuild } from 'vite';
import { rmSync } from 'node:fs';

const quiet = process.argv.includes('--quiet');
rmSync('dist', { recursive: true, force: true });

const node = { bundle: true, platform: 'node', target: 'node20', sourcemap: true, packages: 'external', logLevel: quiet ? 'error' : 'warning' };
await Promise.all([
  esbuild({ ...node, format: 'esm', entryPoints: { 'service/offload-worker': 'service/offload/worker.ts', 'main/index': 'main/index.ts', 'main/headless': 'main/headless.ts', 'main/cache-worker': 'main/cache/pull-worker.ts', 'main/parse-worker': 'main/cache/parse-worker.ts', 'service/cli': 'service/cli.ts', 'service/worker': 'service/worker/cli.ts' }, outdir: 'dist', outExtension: { '.js': '.js' } }),
  // Sandboxed preload scripts must be CommonJS, and may only require electron.
  esbuild({ ...node, format: 'cjs', entryPoints: { 'preload/index': 'preload/index.ts' }, outdir: 'dist', outExtension: { '.js': '.cjs' }, packages: undefined, external: ['electron'] }),
]);
// Renderer source maps stay in dist/ for reading stack traces, but the bundle does not point at
// them ('hidden'): the web bridge serves no .map and electron-builder packs none.
await viteBuild({ configFile: 'scripts/vite.renderer.config.mjs', build: { sourcemap: 'hidden' }, logLevel: quiet ? 'error' : 'warn' });
if (!quiet) console.log('built dist/');
