/**
 * @module upstream/worker-graphql
 * What the Worker bundle gets for `import … from 'graphql'` (wrangler.toml `[alias]`). graphql-request
 * imports graphql-js's `parse` and `print` only to read a document's operation name; v2bridge sends
 * string documents with `excludeOperationName` (src/upstream/nerdgraph.ts), so neither runs
 * (graphql-request legacy/helpers/analyzeDocument.js). Leaving graphql-js out saves about 12 KiB
 * gzipped. Should a code path ever call them, it fails loudly instead of sending a wrong request.
 */
export const Kind = { OPERATION_DEFINITION: 'OperationDefinition' } as const

export function parse(): never {
  throw new Error('graphql parse is not bundled in the Worker (src/upstream/worker-graphql.ts)')
}

export function print(): never {
  throw new Error('graphql print is not bundled in the Worker (src/upstream/worker-graphql.ts)')
}
