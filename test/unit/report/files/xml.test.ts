import { describe, expect, it } from 'vitest'
import { escapeXmlAttribute, escapeXmlText } from '../../../../src/report/files/xml.js'

describe('XML escaping', () => {
  it.each([
    {
      text: 'GET /user answers 200 (USER-READ) #1; 100% = done',
      asText: 'GET /user answers 200 (USER-READ) #1; 100% = done',
      asAttribute: 'GET /user answers 200 (USER-READ) #1; 100% = done',
    },
    { text: 'a & b < c > d', asText: 'a &amp; b &lt; c &gt; d', asAttribute: 'a &amp; b &lt; c &gt; d' },
    { text: `say "hi" it's`, asText: `say "hi" it's`, asAttribute: 'say &quot;hi&quot; it&apos;s' },
    { text: 'one\ttwo\nthree\r', asText: 'one\ttwo\nthree\r', asAttribute: 'one&#9;two&#10;three&#13;' },
    { text: 'Zoë runs 5 km 🏃', asText: 'Zoë runs 5 km 🏃', asAttribute: 'Zoë runs 5 km 🏃' },
    {
      text: 'bell\u0007 nul\u0000 lone\ud800 end\ufffe\uffff',
      asText: 'bell nul lone end',
      asAttribute: 'bell nul lone end',
    },
    { text: '', asText: '', asAttribute: '' },
  ])('$text', ({ text, asText, asAttribute }) => {
    expect(escapeXmlText(text)).toBe(asText)
    expect(escapeXmlAttribute(text)).toBe(asAttribute)
  })
})
