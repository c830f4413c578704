/** Code points XML 1.0 forbids even escaped (controls but tab/LF/CR, lone surrogates, U+FFFE/FFFF). */
const FORBIDDEN_IN_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

export function stripInvalidXmlChars(text: string): string {
  return text.replace(FORBIDDEN_IN_XML, '')
}

/** Text content: `&`, `<`, `>` escaped; forbidden characters removed. */
export function escapeXmlText(text: string): string {
  return stripInvalidXmlChars(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** Attribute values (double-quoted): also quotes, and line breaks kept as character references. */
export function escapeXmlAttribute(text: string): string {
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
