import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In development the API runs on :3000 (npm run dev -w @admin/server); Vite proxies to it.
export default defineConfig({
  plugins: [react()],
  // No source maps: the server would publish the console's source with them (the server serves none either, plugins/spa.ts).
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, manifest: true },
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000', '/runtime-config.js': 'http://127.0.0.1:3000' },
  },
});
