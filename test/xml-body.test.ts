import { describe, expect, it } from 'vitest'
import { paramsFromBody } from '../src/http/params'
import { xmlBody } from '../src/http/xml-body'

describe('xmlBody', () => {
  it('reads elements as Rails Hash.from_xml does: root key, nesting, dashes to underscores, nil', () => {
    expect(
      xmlBody(
        '<?xml version="1.0" encoding="UTF-8"?>\n<deployment>\n  <app-name>Shop &amp; Co</app-name>\n' +
          '  <changelog nil="true"/>\n  <description><![CDATA[a <b> c]]></description>\n' +
          '  <!-- note -->\n  <user>&#233;&#x41;</user>\n</deployment>\n'
      )
    ).toEqual({
      deployment: { app_name: 'Shop & Co', changelog: null, description: 'a <b> c', user: 'éA' },
    })
    expect(xmlBody('<a><b>1</b><b>2</b><c><d>x</d></c></a>')).toEqual({
      a: { b: ['1', '2'], c: { d: 'x' } },
    })
  })

  it('refuses malformed XML, a DOCTYPE and text outside the root with 400', () => {
    for (const text of [
      '<a><b></a>',
      '<a>',
      '<a></a><b></b>',
      'junk<a></a>',
      '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>',
      '<a>1 < 2</a>',
    ]) {
      expect(() => xmlBody(text), text).toThrow(expect.objectContaining({ status: 400 }))
    }
  })

  it('feeds v2 parameters for XML bodies', () => {
    expect(
      paramsFromBody(
        '<application><settings><app_apdex_threshold>0.7</app_apdex_threshold></settings></application>',
        'application/xml; charset=utf-8'
      )
    ).toEqual([['application[settings][app_apdex_threshold]', '0.7']])
  })
})
