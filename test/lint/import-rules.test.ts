/**
 * The import rules `npm run lint` enforces (scripts/import-rules.ts, docs/architecture.md), proved on
 * fixture trees: a clean tree passes, a circle and each kind of forbidden import fail.
 */
import { describe, expect, it } from 'vitest'
import {
  importCircles,
  importEdges,
  layerProblems,
  type SourceFile,
} from '../../scripts/import-rules'

const clean: SourceFile[] = [
  { path: 'mappings/value-types.ts', text: 'export const t = 1\n' },
  { path: 'src/core/errors.ts', text: "import { t } from '../../mappings/value-types'\n" },
  { path: 'src/upstream/nerdgraph.ts', text: "import { V2Error } from '../core/errors'\n" },
  { path: 'src/http/env.ts', text: "import type { NerdGraph } from '../upstream/nerdgraph'\n" },
  { path: 'src/entities/resolve.ts', text: "import type { Env } from '../http/env'\n" },
  {
    path: 'src/resources/metrics/plan.ts',
    text: "import { resolve } from '../../entities/resolve'\nimport { columns } from './columns'\n",
  },
  {
    path: 'src/resources/metrics/columns.ts',
    text: "import { V2Error } from '../../core/errors'\n",
  },
  {
    path: 'src/app.ts',
    // A dynamic import, spelt in two parts so this file's own imports stay the ones lint reads.
    text:
      "import { plan } from './resources/metrics/plan'\nconst later = () => im" +
      "port('./http/env')\n",
  },
  { path: 'simulator/index.ts', text: "export { x } from './nrql/parse'\n" },
  { path: 'simulator/nrql/parse.ts', text: 'export const x = 1\n' },
  { path: 'test/metrics/plan.test.ts', text: "import { x } from '../../simulator'\n" },
  {
    path: 'test/simulator/parse.test.ts',
    text: "import { x } from '../../simulator/nrql/parse'\n",
  },
]

const problemsOf = (files: SourceFile[]) => {
  const edges = importEdges(files)
  return { layers: layerProblems(edges), circles: importCircles(edges), edges }
}

describe('import rules', () => {
  it('pass a tree that follows the layer table, with every import resolved', () => {
    const { layers, circles, edges } = problemsOf(clean)
    expect(layers).toEqual([])
    expect(circles).toEqual([])
    expect(edges.filter((e) => !e.to)).toEqual([])
    expect(edges).toHaveLength(12)
  })

  it('find a circle, type-only imports included', () => {
    const circle = [
      ...clean,
      { path: 'src/core/config.ts', text: "import type { Limits } from './limits'\n" },
      { path: 'src/core/limits.ts', text: "import { parse } from './parse'\n" },
      { path: 'src/core/parse.ts', text: "import type { Config } from './config'\n" },
    ]
    expect(problemsOf(circle).circles).toEqual([
      ['src/core/config.ts', 'src/core/limits.ts', 'src/core/parse.ts'],
    ])
  })

  it('refuse an import up the layers', () => {
    const up = [
      ...clean,
      { path: 'src/core/ids.ts', text: "import type { Env } from '../http/env'\n" },
    ]
    expect(problemsOf(up).layers).toEqual([
      'src/core/ids.ts:1: src/core may not import src/http/env.ts (scripts/import-rules.ts)',
    ])
  })

  it('refuse a resource importing another resource', () => {
    const across = [
      ...clean,
      {
        path: 'src/resources/hosts/list.ts',
        text: "// the list\nimport { plan } from '../metrics/plan'\n",
      },
    ]
    expect(problemsOf(across).layers).toEqual([
      'src/resources/hosts/list.ts:2: src/resources may not import src/resources/metrics/plan.ts (scripts/import-rules.ts)',
    ])
  })

  it('refuse src/ importing the simulator, and anyone else reaching past its entry', () => {
    const reach = [
      ...clean,
      { path: 'src/cli/demo.ts', text: "import { x } from '../../simulator'\n" },
      { path: 'bench/nrql.ts', text: "import { x } from '../simulator/nrql/parse'\n" },
      { path: 'simulator/render.ts', text: "import { V2Error } from '../src/core/errors'\n" },
    ]
    expect(problemsOf(reach).layers).toEqual([
      'src/cli/demo.ts:1: src/ never imports the simulator (simulator/index.ts)',
      'src/cli/demo.ts:1: src/cli may not import simulator/index.ts (scripts/import-rules.ts)',
      'bench/nrql.ts:1: imports simulator/nrql/parse.ts: outside the simulator, import simulator/index.ts',
      'simulator/render.ts:1: simulator may not import src/core/errors.ts (scripts/import-rules.ts)',
    ])
  })

  it('report an import that resolves to no file', () => {
    const broken = [...clean, { path: 'src/core/x.ts', text: "import { y } from './missing'\n" }]
    expect(problemsOf(broken).edges.filter((e) => !e.to)).toEqual([
      { from: 'src/core/x.ts', to: '', line: 1 },
    ])
  })
})
