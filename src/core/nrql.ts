/**
 * @module core/nrql
 * The one function that quotes a caller-supplied value for NRQL or an entity-search query.
 * Single-quoted; a backslash and a quote are escaped with a backslash (NRQL string syntax,
 * nrql-syntax-clauses-functions.mdx). Everything else, unicode and newlines included, passes as is.
 */
export function quote(value: string | number): string {
  return `'${String(value).replace(/[\\']/g, (c) => `\\${c}`)}'`
}

/** A comma-separated, parenthesised list of quoted values for `IN (…)`. */
export function quoteList(values: readonly (string | number)[]): string {
  return `(${values.map(quote).join(', ')})`
}
