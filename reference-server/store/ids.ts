// Activity ids per mode. All three are derived from the creation sequence number, so the seed is
// deterministic and a created activity's id never collides with a seeded one.
import { hashText } from '../data/prng.js'

/** integer: `1001`; opaque: `ax…` (26 base-36 characters); uuid: a version-4-shaped UUID. */
export type IdStyle = 'integer' | 'opaque' | 'uuid'

export function formatActivityId(style: IdStyle, seq: number): string {
  switch (style) {
    case 'integer':
      return String(1000 + seq)
    case 'opaque':
      return 'ax' + hashChunks(`opaque:${seq}`, 4, 36, 6)
    case 'uuid':
      return formatUuid(hashChunks(`uuid:${seq}`, 4, 16, 8))
  }
}

function hashChunks(label: string, count: number, radix: number, width: number): string {
  let text = ''
  for (let i = 0; i < count; i++) text += hashText(`${label}:${i}`).toString(radix).padStart(width, '0').slice(-width)
  return text
}

function formatUuid(hex: string): string {
  // Version nibble 4 and variant bits 10xx, so strict UUID parsers accept it.
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16)
  const h = hex.slice(0, 12) + '4' + hex.slice(13, 16) + variant + hex.slice(17)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`
}
