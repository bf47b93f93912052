import { describe, expect, it } from 'vitest'
import { escapeXml, renderXml } from '../../src/http/render/xml'

describe('renderXml', () => {
  it('renders the confirmed metric_data sample shape (TONS)', () => {
    const xml = renderXml({
      metric_data: {
        from: '2015-11-02T14:48:43+00:00',
        metrics: [
          {
            name: 'Agent/MetricsReported/count',
            timeslices: [
              { values: { average_response_time: 111, call_count: 64144, min_response_time: 21 } },
            ],
          },
        ],
      },
    })
    expect(xml).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<metric_data_response>',
        '  <metric_data>',
        '    <from>2015-11-02T14:48:43+00:00</from>',
        '    <metrics>',
        '      <metric>',
        '        <name>Agent/MetricsReported/count</name>',
        '        <timeslices>',
        '          <timeslice>',
        '            <values>',
        '              <average_response_time>111</average_response_time>',
        '              <call_count>64144</call_count>',
        '              <min_response_time>21.0</min_response_time>',
        '            </values>',
        '          </timeslice>',
        '        </timeslices>',
        '      </metric>',
        '    </metrics>',
        '  </metric_data>',
        '</metric_data_response>',
        '',
      ].join('\n')
    )
  })

  it('writes null as nil="true", empty arrays self-closing, booleans as text', () => {
    const xml = renderXml({ application: { description: null, servers: [], reporting: false } })
    expect(xml).toContain('<description nil="true"/>')
    expect(xml).toContain('<servers/>')
    expect(xml).toContain('<reporting>false</reporting>')
  })

  it('singularises array items and keeps dotted link keys', () => {
    const xml = renderXml({
      applications: [{ links: { application_hosts: [1, 2] } }],
      links: { 'application.servers': '/v2/servers?ids={server_ids}' },
    })
    expect(xml).toContain('<applications>\n    <application>')
    expect(xml).toContain('<application_host>1</application_host>')
    expect(xml).toContain('<application.servers>/v2/servers?ids={server_ids}</application.servers>')
  })

  it('escapes markup and drops characters XML cannot carry', () => {
    expect(escapeXml(`a<b>&"c'\u0001\uD800`)).toBe('a&lt;b&gt;&amp;&quot;c&apos;')
    expect(escapeXml('日本語 😀')).toBe('日本語 😀')
  })
})
