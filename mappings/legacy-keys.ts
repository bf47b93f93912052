/**
 * @module mappings/legacy-keys
 * Keys v2 and the v0 deployments API took that NerdGraph refuses: NerdGraph accepts only user keys
 * (`NRAK-…`; New Relic docs "New Relic API keys"; an Admin key gets 401 "Bad API Key", newrelic-cli
 * issue #191). Such a key works only through a KEY_MAP entry (src/core/keys.ts).
 */
export const legacyKeyPatterns = {
  restApiKey: /^[0-9a-f]{47}$/i, // REST API key: 47 hex (hakamadare/rubygem-reliquary validation)
  licenseKey: /^[0-9a-f]{40}$/i, // license key, original format: 40 hex (v0 `x-license-key`)
  licenseKeyNral: /^[0-9a-f]{36}NRAL$/i, // license key, current format (New Relic docs "New Relic API keys")
  adminKey: /^NRAA-/i, // Admin user's API key (New Relic docs "New Relic API keys")
} as const satisfies Record<string, RegExp>
