/**
 * Every GraphQL document v2bridge sends validates against the simulator's schema subset and against
 * the real NerdGraph schema (schema/nerdgraph.graphql, kept by `npm run schema:sync`).
 */
import { buildSchema, parse, validate, type GraphQLSchema } from 'graphql'
import { describe, expect, it } from 'vitest'
import {
  hostsDocument,
  insightsDocument,
  listApplicationsDocument,
  servedBrowsersDocument,
  showApplicationDocument,
} from '../src/resources/applications/documents'
import {
  channelDocument,
  channelsDocument,
  createChannelDocument,
  deleteChannelDocument,
  incidentsDocument,
  issueActionDocuments,
  issuesDocument,
  policyChannelsDocuments,
} from '../src/resources/alerts/documents'
import {
  createDeploymentDocument,
  deploymentsPageDocument,
  listDeploymentsDocument,
} from '../src/resources/deployments/documents'
import {
  deleteApplicationDocument,
  updateSettingsDocument,
} from '../src/resources/applications/writes'

import { metricDataDocument, metricNamesDocument } from '../src/resources/metrics/documents'
import { nrqlDocument } from '../src/upstream/nrql-document'
import { resolveDocuments } from '../src/entities/resolve'
import { doctorDocuments } from '../src/cli/doctor-documents'
import { doctorAssumptionDocuments } from '../src/cli/doctor-assumption-documents'
import { SCHEMA_SDL } from '../simulator'
import { realSchema } from './helpers/real-schema'
import { accountsDocument, keyAccountDocument } from '../src/entities/accounts'
import { labelSearchDocument, taggingDocument } from '../src/resources/labels/documents'
import { detailsPart } from '../src/entities/entity-details'
import {
  detailSelection,
  listKeyTransactionsDocument,
  pageExtrasDocument,
  showKeyTransactionDocument,
  showKeyTransactionWithLastDocument,
} from '../src/resources/key-transactions/documents'
import { searchCursorDocument } from '../src/entities/search-pages'
import { keyCheckDocument } from '../src/upstream/key-check'
import {
  browserDetailsDocument,
  createBrowserApplicationDocument,
  listBrowserApplicationsDocument,
} from '../src/resources/browser-applications/browser-applications'
import {
  createMobileApplicationDocument,
  listMobileApplicationsDocument,
} from '../src/resources/mobile-applications/mobile-applications'
import { usersDocument } from '../src/resources/users/users'

export const sentDocuments: Record<string, string> = {
  accounts: accountsDocument,
  keyAccount: keyAccountDocument,
  labelSearch: labelSearchDocument,
  addLabel: taggingDocument('add', 2),
  deleteLabel: taggingDocument('delete', 2),
  list0: listApplicationsDocument(0),
  list1: listApplicationsDocument(1),
  list3: listApplicationsDocument(3),
  insights1: insightsDocument(1),
  insights2: insightsDocument(2),
  servedBrowsers: servedBrowsersDocument,
  show: showApplicationDocument,
  hosts: hostsDocument,
  nrql: nrqlDocument,
  findEntity: resolveDocuments.findEntityDocument,
  metricData1: metricDataDocument(1, 0),
  metricData1Known: metricDataDocument(1, 1),
  metricData3Known: metricDataDocument(3, 1),
  metricData3Known3: metricDataDocument(3, 3),
  metricData1KnownMembers: metricDataDocument(1, 1, { members: true }),
  metricData1KnownOthers: metricDataDocument(1, 1, { others: true }),
  metricData2OthersMembers: metricDataDocument(2, 1, { others: true, members: true }),
  metricNames: metricNamesDocument,
  listDeployments: listDeploymentsDocument,
  deploymentsPage: deploymentsPageDocument,
  createDeployment: createDeploymentDocument,
  updateApplicationSettings: updateSettingsDocument,
  deleteApplication: deleteApplicationDocument,
  ...doctorDocuments,
  ...doctorAssumptionDocuments,
  searchCursor: searchCursorDocument,
  listKeyTransactions: listKeyTransactionsDocument,
  showKeyTransaction: showKeyTransactionDocument,
  showKeyTransactionWithLast: showKeyTransactionWithLastDocument,
  keyTransactionDetails: pageExtrasDocument(
    detailsPart(
      Array.from({ length: 30 }, (_, i) => `g${i}`),
      detailSelection
    ),
    2
  ),
  users: usersDocument,
  listBrowserApplications: listBrowserApplicationsDocument,
  browserDetails: browserDetailsDocument(30),
  createBrowserApplication: createBrowserApplicationDocument,
  listMobileApplications: listMobileApplicationsDocument,
  createMobileApplication: createMobileApplicationDocument,
  keyCheck: keyCheckDocument,
  keyTransactionSummariesOnly: pageExtrasDocument(detailsPart([], detailSelection), 1),
  alertIssues: issuesDocument,
  alertIncidents: incidentsDocument,
  ackIssue: issueActionDocuments.acknowledge,
  resolveIssue: issueActionDocuments.close,
  alertChannels: channelsDocument,
  alertChannel: channelDocument,
  createChannel: createChannelDocument,
  deleteChannel: deleteChannelDocument,
  addChannelsToPolicy: policyChannelsDocuments.add,
  removeChannelsFromPolicy: policyChannelsDocuments.remove,
}

function errorsOf(schema: GraphQLSchema, doc: string): string[] {
  return validate(schema, parse(doc)).map((e) => e.message)
}

describe('GraphQL documents v2bridge sends', () => {
  it('builds each variant once', () => {
    expect(metricDataDocument(1, 1)).toBe(metricDataDocument(1, 1))
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
