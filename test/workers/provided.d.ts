declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the simulator started by global-setup.ts */
    simulatorUrl: string
    /** How far the test clock is ahead of workerd's (test/helpers/real-clock.ts); 0 without faketime */
    clockOffsetMs: number
    /** The test clock when global setup ran, in epoch ms */
    setupAt: number
  }
}
export {}
