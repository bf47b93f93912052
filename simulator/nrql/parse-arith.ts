/** @module simulator/nrql/parse-arith Arithmetic grammar shared by select items and per-row expressions. */
import type { ArithOp } from './ast'
import type { Cursor } from './cursor'

/** sum := product (('+'|'-') product)* ; product := unary (('*'|'/') unary)* */
export function parseArith<E>(cursor: Cursor, primary: () => E): E {
  const product = (): E => {
    let left = parseUnary(cursor, primary)
    while (cursor.isPunct('*') || cursor.isPunct('/')) {
      const op = cursor.next().value as ArithOp
      left = { type: 'binary', op, left, right: parseUnary(cursor, primary) } as E
    }
    return left
  }
  let left = product()
  while (cursor.isPunct('+') || cursor.isPunct('-')) {
    const op = cursor.next().value as ArithOp
    left = { type: 'binary', op, left, right: product() } as E
  }
  return left
}

function parseUnary<E>(cursor: Cursor, primary: () => E): E {
  if (cursor.acceptPunct('-')) {
    const token = cursor.peek()
    if (token.kind === 'number') {
      cursor.next()
      return { type: 'number', value: -Number(token.value) } as E
    }
    return { type: 'negate', operand: parseUnary(cursor, primary) } as E
  }
  if (cursor.acceptPunct('(')) {
    const inner = parseArith(cursor, primary)
    cursor.expectPunct(')')
    return inner
  }
  const token = cursor.peek()
  if (token.kind === 'number') {
    cursor.next()
    return { type: 'number', value: Number(token.value) } as E
  }
  return primary()
}
