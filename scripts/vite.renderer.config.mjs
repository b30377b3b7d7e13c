import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

// The renderer runs in two Chromiums: Electron 45's (package.json; Chromium 154: Electron ships every
// other Chromium, 44 shipped 152) and Debian's /usr/bin/chromium that the UI tests drive (156).
// Target the lower, so nothing is lowered that both run natively (at chrome120 light-dark() and
// the theme's colours were rewritten into custom-property hacks).
const CHROMIUM = 'chrome154';

export default defineConfig({
  root: fileURLToPath(new URL('../renderer', import.meta.url)),
  base: './',
  plugins: [react()],
  build: { outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)), emptyOutDir: true, sourcemap: true, target: CHROMIUM },
});
