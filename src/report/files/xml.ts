/** Code points XML 1.0 forbids even escaped (controls but tab/LF/CR, lone surrogates, U+FFFE/FFFF). */
const FORBIDDEN_IN_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

export function stripInvalidXmlChars(text: string): string {
  return text.replace(FORBIDDEN_IN_XML, '')
}

/*
 * Most texts of a report (ids, rule names, titles, times) need no escaping at all: one test of the
 * characters that are always safe spares them the chain of replacements. Everything else (and every
 * character outside the Basic Multilingual Plane, allowed or not) takes the full path.
 */
const ONLY_SAFE_TEXT = /^[\t\n\r\u0020-\u0025\u0027-\u003b\u003d\u003f-\ud7ff\ue000-\ufffd]*$/
const ONLY_SAFE_ATTRIBUTE = /^[\u0020\u0021\u0023-\u0025\u0028-\u003b\u003d\u003f-\ud7ff\ue000-\ufffd]*$/

/** Text content: `&`, `<`, `>` escaped; forbidden characters removed. */
export function escapeXmlText(text: string): string {
  if (ONLY_SAFE_TEXT.test(text)) return text
  return stripInvalidXmlChars(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** Attribute values (double-quoted): also quotes, and line breaks kept as character references. */
export function escapeXmlAttribute(text: string): string {
  if (ONLY_SAFE_ATTRIBUTE.test(text)) return text
  return escapeXmlText(text)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;')
}

/** `<name a="1" b="2">` from ordered pairs; undefined values are left out. */
export function xmlAttributes(attributes: ReadonlyArray<readonly [string, string | number | undefined]>): string {
  return attributes
    .filter((pair): pair is readonly [string, string | number] => pair[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeXmlAttribute(String(value))}"`)
    .join('')
}
