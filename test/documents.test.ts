/**
 * Every GraphQL document v2bridge sends validates against the simulator's schema subset and against
 * the real NerdGraph schema (schema/nerdgraph.graphql, kept by `npm run schema:sync`).
 */
import { buildSchema, parse, validate, type GraphQLSchema } from 'graphql'
import { describe, expect, it } from 'vitest'
import {
  accountsDocument,
  hostsDocument,
  insightsDocument,
  listApplicationsDocument,
  showApplicationDocument,
} from '../src/applications/documents'
import { listDocuments } from '../src/applications/list'
import { createDeploymentDocument, listDeploymentsDocument } from '../src/deployments/documents'
import { metricDataDocument, metricNamesDocument } from '../src/metrics/documents'
import { nrqlDocument } from '../src/nrql-document'
import { resolveDocuments } from '../src/resolve'
import { doctorDocuments } from '../src/cli/doctor-documents'
import { SCHEMA_SDL } from '../src/simulator'
import { realSchema } from './helpers/real-schema'

export const sentDocuments: Record<string, string> = {
  accounts: accountsDocument,
  list0: listApplicationsDocument(0),
  list1: listApplicationsDocument(1),
  list3: listApplicationsDocument(3),
  insights1: insightsDocument(1),
  insights2: insightsDocument(2),
  show: showApplicationDocument,
  hosts: hostsDocument,
  nrql: nrqlDocument,
  nextCursor: listDocuments.nextCursorDocument,
  findApplication: resolveDocuments.findApplicationDocument,
  metricData1: metricDataDocument(1, false),
  metricData1Known: metricDataDocument(1, true),
  metricData3Known: metricDataDocument(3, true),
  metricData1KnownMembers: metricDataDocument(1, true, true),
  metricNames: metricNamesDocument,
  listDeployments: listDeploymentsDocument,
  createDeployment: createDeploymentDocument,
  ...doctorDocuments,
}

function errorsOf(schema: GraphQLSchema, doc: string): string[] {
  return validate(schema, parse(doc)).map((e) => e.message)
}

describe('GraphQL documents v2bridge sends', () => {
  it('builds each variant once', () => {
    expect(metricDataDocument(1, true)).toBe(metricDataDocument(1, true))
    expect(listApplicationsDocument(2)).toBe(listApplicationsDocument(2))
  })

  const subset = buildSchema(SCHEMA_SDL)
  it.each(Object.entries(sentDocuments))('%s validates against the simulator schema', (_, doc) => {
    expect(errorsOf(subset, doc)).toEqual([])
  })

  it.each(Object.entries(sentDocuments))(
    '%s validates against the real NerdGraph schema',
    (_, doc) => {
      expect(errorsOf(realSchema(), doc)).toEqual([])
    }
  )
})
