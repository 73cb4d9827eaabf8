import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// Main (Electron shell + the engine worker), preload (CommonJS: sandboxed preloads cannot be ESM)
// and the renderer. The web host serves the same built renderer from out/renderer.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve('src-main/electron/main.ts'),
          engineWorker: resolve('src-main/engine/worker.ts'),
          importWorker: resolve('src-main/engine/import/checkWorker.ts'),
          mergeWorker: resolve('src-main/engine/import/mergeWorker.ts'),
          pullWorker: resolve('src-main/engine/office/pullWorker.ts'),
          checkpointWorker: resolve('src-main/engine/store/checkpointWorker.ts'),
          exportWorker: resolve('src-main/engine/export/exportWorker.ts'),
          gpkgWorker: resolve('src-main/engine/export/gpkgWorker.ts'),
          ruleTestWorker: resolve('src-main/engine/alerts/ruleTestWorker.ts'),
          analysisWorker: resolve('src-main/engine/analysis/analysisWorker.ts'),
          boundaryWorker: resolve('src-main/engine/boundaries/boundaryWorker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload can require only 'electron': bundle zod and the contract into it.
      externalizeDeps: false,
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve('src-preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src-renderer',
    base: './',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      // Minified: the launch parses the first bundle before the map can appear (issue 13).
      minify: true,
      rollupOptions: { input: { index: resolve('src-renderer/index.html') } },
    },
    worker: { format: 'es' },
  },
});
