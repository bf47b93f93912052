/** @module simulator/nrql/lexer Tokenizer for the NRQL subset. */
import { NrqlError } from '../types'

export type TokenKind = 'ident' | 'backtick' | 'string' | 'number' | 'punct' | 'eof'

export interface Token {
  kind: TokenKind
  /** Identifier / punctuation text, unescaped string or backtick content, number digits. */
  value: string
  start: number
  end: number
}

const PUNCT2 = ['!=', '<>', '<=', '>=']
const PUNCT1 = '(),*+-/[]=<>'
const IDENT_START = /[A-Za-z_$]/
const IDENT_PART = /[A-Za-z0-9_.$]/
const DIGIT = /[0-9]/

/** Splits NRQL text into tokens; the last token is always `eof`. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  while (i < text.length) {
    const ch = text[i] as string
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      i++
    } else if (ch === "'") {
      i = readString(text, i, tokens)
    } else if (ch === '`') {
      const close = text.indexOf('`', i + 1)
      if (close < 0) throw new NrqlError(`Unterminated backtick name at position ${i}`)
      if (close === i + 1) throw new NrqlError(`Empty backtick name at position ${i}`)
      tokens.push({ kind: 'backtick', value: text.slice(i + 1, close), start: i, end: close + 1 })
      i = close + 1
    } else if (DIGIT.test(ch)) {
      let j = i
      while (j < text.length && DIGIT.test(text[j] as string)) j++
      if (text[j] === '.' && DIGIT.test(text[j + 1] ?? '')) {
        j++
        while (j < text.length && DIGIT.test(text[j] as string)) j++
      }
      if (IDENT_START.test(text[j] ?? '')) throw new NrqlError(`Malformed number at position ${i}`)
      tokens.push({ kind: 'number', value: text.slice(i, j), start: i, end: j })
      i = j
    } else if (IDENT_START.test(ch)) {
      let j = i + 1
      while (j < text.length && IDENT_PART.test(text[j] as string)) j++
      tokens.push({ kind: 'ident', value: text.slice(i, j), start: i, end: j })
      i = j
    } else {
      const two = text.slice(i, i + 2)
      const len = PUNCT2.includes(two) ? 2 : PUNCT1.includes(ch) ? 1 : 0
      if (len === 0) throw new NrqlError(`Unexpected character '${ch}' at position ${i}`)
      tokens.push({ kind: 'punct', value: text.slice(i, i + len), start: i, end: i + len })
      i += len
    }
  }
  tokens.push({ kind: 'eof', value: '', start: text.length, end: text.length })
  return tokens
}

/** Single-quoted literal: `\'` is a quote, `\\` a backslash, any other `\x` is x. */
function readString(text: string, start: number, tokens: Token[]): number {
  let out = ''
  let i = start + 1
  while (i < text.length) {
    const ch = text[i] as string
    if (ch === '\\') {
      if (i + 1 >= text.length) break
      out += text[i + 1]
      i += 2
    } else if (ch === "'") {
      tokens.push({ kind: 'string', value: out, start, end: i + 1 })
      return i + 1
    } else {
      out += ch
      i++
    }
  }
  throw new NrqlError(`Unterminated string literal at position ${start}`)
}
