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

  // Rails Hash.from_xml (activesupport core_ext/hash/conversions.rb, XMLConverter `become_array?`),
  // which v2 used for XML write bodies (v2 explorer labels.json: "consumes application/xml").
  it('reads type="array" elements as lists, one child or none included, as Rails does', () => {
    expect(
      xmlBody(
        '<label><links><applications type="array"><application>9045822</application></applications>' +
          '<servers type="array"/><ids type="array" nil="true"></ids>' +
          '<hosts type="array"><host><name>a</name></host><host><name>b</name></host></hosts>' +
          '</links></label>'
      )
    ).toEqual({
      label: {
        links: {
          applications: ['9045822'],
          servers: [],
          ids: [],
          hosts: [{ name: 'a' }, { name: 'b' }],
        },
      },
    })
  })

  it('gives an XML label the parameters of the same JSON body', () => {
    // the JSON form as the v2 explorer's labels.json `PUT /labels` model has it (links.applications, links.servers)
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?><label><category>Env</category><name>Prod</name>' +
      '<links><applications type="array"><application>9045822</application></applications>' +
      '<servers type="array"></servers></links></label>'
    const json = JSON.stringify({
      label: { category: 'Env', name: 'Prod', links: { applications: [9045822], servers: [] } },
    })
    expect(paramsFromBody(xml, 'application/xml')).toEqual(paramsFromBody(json, 'application/json'))
    expect(paramsFromBody(xml, 'application/xml')).toEqual([
      ['label[category]', 'Env'],
      ['label[name]', 'Prod'],
      ['label[links][applications][]', '9045822'],
    ])
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
