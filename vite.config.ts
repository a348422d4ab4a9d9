import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', sourcemap: true, emptyOutDir: true },
  worker: { format: 'es' },
  server: {
    proxy: {
      '/portal': 'http://127.0.0.1:8080',
      '/connect': 'http://127.0.0.1:8080',
      '/.well-known': 'http://127.0.0.1:8080',
      '/config.json': 'http://127.0.0.1:8080',
      '/hubs': { target: 'http://127.0.0.1:8080', ws: true },
    },
  },
});
