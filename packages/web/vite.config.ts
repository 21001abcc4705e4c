import { defineConfig } from 'vite';

/**
 * The app is served by the marketlens server under `/app`: every built file but `index.html` gets
 * a content hash in its name (`/app/assets/index-<hash>.js`), so the server can send them with a
 * year-long immutable cache and `index.html` with `no-cache`. No inline script or style is
 * emitted (the server's Content-Security-Policy allows none).
 */
export default defineConfig({
  base: '/app/',
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    target: 'es2022',
    // Inline assets would become data: URLs; every file stays a file the server sends.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: true,
  },
});
