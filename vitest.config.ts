import { cloudflareTest } from '@cloudflare/vitest-pool-workers'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the simulator started by test/workers/global-setup.ts */
    simulatorUrl: string
    /** How far the test clock is ahead of workerd's (test/helpers/real-clock.ts); 0 without faketime */
    clockOffsetMs: number
    /** The test clock when global setup ran, in epoch ms */
    setupAt: number
  }
}

// Under `faketime` workerd starts on the real clock (test/helpers/real-clock.ts says why).
if (/faketime/i.test(process.env['LD_PRELOAD'] ?? '')) {
  process.env['V2BRIDGE_WORKERD'] = createRequire(import.meta.url)('workerd').default
  process.env['MINIFLARE_WORKERD_PATH'] = fileURLToPath(
    new URL('./scripts/workerd-real-clock.sh', import.meta.url)
  )
}

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/workers/**'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        plugins: [
          cloudflareTest(({ inject }) => ({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              // Request lines stay out of a green run's output: only 5xx lines show.
              bindings: {
                NERDGRAPH_URL: `${inject('simulatorUrl')}/graphql`,
                ALLOW_HTTP: 'true',
                LOG_LEVEL: 'error',
              },
            },
          })),
        ],
        test: {
          name: 'workers',
          include: ['test/workers/**/*.test.ts'],
          globalSetup: ['test/workers/global-setup.ts'],
          setupFiles: ['test/workers/shifted-clock.ts'],
          // One simulator serves every file and its request counters are global: files run one at a time.
          fileParallelism: false,
          testTimeout: 30_000,
        },
      },
    ],
  },
})
