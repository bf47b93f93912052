/** @module simulator/nrql/cursor Token cursor shared by the parser modules. */
import { NrqlError } from '../types'
import type { Token } from './lexer'

export class Cursor {
  private pos = 0

  constructor(
    readonly text: string,
    private readonly tokens: Token[]
  ) {}

  peek(ahead = 0): Token {
    const last = this.tokens[this.tokens.length - 1] as Token
    return this.tokens[this.pos + ahead] ?? last
  }

  next(): Token {
    const token = this.peek()
    if (token.kind !== 'eof') this.pos++
    return token
  }

  /** End offset of the most recently consumed token. */
  lastEnd(): number {
    return this.tokens[this.pos - 1]?.end ?? 0
  }

  /** True when the next token is the (case-insensitive) keyword. */
  isKeyword(keyword: string, ahead = 0): boolean {
    const token = this.peek(ahead)
    return token.kind === 'ident' && token.value.toUpperCase() === keyword
  }

  isPunct(punct: string, ahead = 0): boolean {
    const token = this.peek(ahead)
    return token.kind === 'punct' && token.value === punct
  }

  acceptKeyword(keyword: string): boolean {
    if (!this.isKeyword(keyword)) return false
    this.pos++
    return true
  }

  acceptPunct(punct: string): boolean {
    if (!this.isPunct(punct)) return false
    this.pos++
    return true
  }

  expectKeyword(keyword: string): void {
    if (!this.acceptKeyword(keyword)) throw this.unexpected(keyword)
  }

  expectPunct(punct: string): void {
    if (!this.acceptPunct(punct)) throw this.unexpected(`'${punct}'`)
  }

  /** A non-negative integer literal. */
  expectInteger(what: string): number {
    const token = this.peek()
    if (token.kind !== 'number' || token.value.includes('.')) throw this.unexpected(what)
    this.pos++
    return Number(token.value)
  }

  unexpected(expected: string): NrqlError {
    const token = this.peek()
    const found = token.kind === 'eof' ? 'end of query' : `'${this.source(token)}'`
    return new NrqlError(`Expected ${expected} but found ${found} at position ${token.start}`)
  }

  source(token: Token): string {
    return this.text.slice(token.start, token.end)
  }
}
