import { cloudflareTest } from '@cloudflare/vitest-pool-workers'
import { defineConfig } from 'vitest/config'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the simulator started by test/workers/global-setup.ts */
    simulatorUrl: string
  }
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
          // One simulator serves every file and its request counters are global: files run one at a time.
          fileParallelism: false,
          testTimeout: 30_000,
        },
      },
    ],
  },
})
