declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the simulator started by global-setup.ts */
    simulatorUrl: string
  }
}
export {}
