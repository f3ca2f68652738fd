import { defineConfig } from 'vite';

// Run as `vite build dashboard`: this folder is the Vite root and the output is dashboard/dist.
// No CDN, no external request: everything the page needs is bundled or in public/.
export default defineConfig({
  base: '/',
  publicDir: 'public',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 300,
  },
  server: {
    // `vite dashboard` during development: API calls go to a locally running service
    proxy: { '/api': 'http://127.0.0.1:8081' },
  },
});
