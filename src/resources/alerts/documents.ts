/**
 * @module resources/alerts/documents
 * The NerdGraph documents of the alerts calls, built once (D-migrate: incidents → aiIssues
 * issues, violations → aiIssues incidents, channels → alerts notification channels).
 */
import { gql } from 'graphql-request'

const issueFields = `issueId createdAt closedAt acknowledgedAt state priority title incidentIds
  policyIds policyName conditionFamilyId conditionName entityGuids entityNames`

/** v2 incidents: one page of issues, and the account's policies for `incident_preference`. */
export const issuesDocument = gql`
  query AlertIssues(
    $accountId: Int!
    $cursor: String
    $filter: AiIssuesFilterIssues
    $timeWindow: TimeWindowInput
  ) {
    actor {
      account(id: $accountId) {
        aiIssues {
          issues(cursor: $cursor, filter: $filter, timeWindow: $timeWindow) {
            nextCursor
            issues { ${issueFields} }
          }
        }
        alerts {
          policiesSearch {
            policies {
              id
              incidentPreference
            }
          }
        }
      }
    }
  }
`

/** v2 violations and events: one page of incidents. */
export const incidentsDocument = gql`
  query AlertIncidents(
    $accountId: Int!
    $cursor: String
    $filter: AiIssuesFilterIncidents
    $timeWindow: TimeWindowInput
  ) {
    actor {
      account(id: $accountId) {
        aiIssues {
          incidents(cursor: $cursor, filter: $filter, timeWindow: $timeWindow) {
            nextCursor
            incidents {
              incidentId
              title
              priority
              createdAt
              closedAt
              entityGuids
              entityNames
              ... on AiIssuesNewRelicIncident {
                conditionFamilyId
                policyIds
              }
            }
          }
        }
      }
    }
  }
`

const issueAction = (operation: string, field: string) => gql`
  mutation ${operation}($accountId: Int!, $issueId: ID!) {
    ${field}(accountId: $accountId, issueId: $issueId) {
      error
      result {
        issueId
      }
    }
  }
`

/** `PUT /alerts_incidents/{id}/acknowledge` and `/close`. */
export const issueActionDocuments = {
  acknowledge: issueAction('AckIssue', 'aiIssuesAckIssue'),
  close: issueAction('ResolveIssue', 'aiIssuesResolveIssue'),
} as const

/** Each channel type with its configuration; `withUser: false` for the create union, which has no
 * user channels. */
export function channelSelection(withUser = true): string {
  const configs: [string, string][] = [
    ['Email', 'emails includeJson'],
    ['OpsGenie', 'apiKey dataCenterRegion recipients tags teams'],
    ['PagerDuty', 'apiKey'],
    ['Slack', 'url teamChannel'],
    ['VictorOps', 'key routeKey'],
    [
      'Webhook',
      `baseUrl basicAuth { username password } customHttpHeaders { name value }
       customPayloadBody customPayloadType`,
    ],
    ['XMatters', 'integrationUrl'],
    ...(withUser ? [['User', 'userId'] as [string, string]] : []),
  ]
  return configs
    .map(
      ([kind, fields]) => `... on Alerts${kind}NotificationChannel {
        id name type associatedPolicies { policies { id } } config { ${fields} } }`
    )
    .join('\n')
}

export const channelsDocument = gql`
  query AlertChannels($accountId: Int!, $cursor: String) {
    actor {
      account(id: $accountId) {
        alerts {
          notificationChannels(cursor: $cursor) {
            nextCursor
            totalCount
            channels { ${channelSelection()} }
          }
        }
      }
    }
  }
`

export const channelDocument = gql`
  query AlertChannel($accountId: Int!, $id: ID!) {
    actor {
      account(id: $accountId) {
        alerts {
          notificationChannel(id: $id) { ${channelSelection()} }
        }
      }
    }
  }
`

export const createChannelDocument = gql`
  mutation CreateChannel(
    $accountId: Int!
    $channel: AlertsNotificationChannelCreateConfiguration!
  ) {
    alertsNotificationChannelCreate(accountId: $accountId, notificationChannel: $channel) {
      error {
        errorType
      }
      notificationChannel { ${channelSelection(false)} }
    }
  }
`

export const deleteChannelDocument = gql`
  mutation DeleteChannel($accountId: Int!, $id: ID!) {
    alertsNotificationChannelDelete(accountId: $accountId, id: $id) {
      id
      error {
        errorType
      }
    }
  }
`

const policyChannels = (operation: string, field: string) => gql`
  mutation ${operation}($accountId: Int!, $policyId: ID!, $channelIds: [ID!]!) {
    ${field}(accountId: $accountId, policyId: $policyId, notificationChannelIds: $channelIds) {
      policyId
      notificationChannels {
        id
      }
      errors {
        errorType
        notificationChannelId
      }
    }
  }
`

export const policyChannelsDocuments = {
  add: policyChannels('AddChannelsToPolicy', 'alertsNotificationChannelsAddToPolicy'),
  remove: policyChannels('RemoveChannelsFromPolicy', 'alertsNotificationChannelsRemoveFromPolicy'),
} as const
