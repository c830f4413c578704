/**
 * How a captured exchange crosses from the forwarding thread to the recording thread: appended, as
 * bytes, to a ring in shared memory, one writer (the forwarding thread) and one reader (the recording
 * thread). A `postMessage` of the captured objects cost the forwarding thread ten times this append
 * (structured clone, one ArrayBuffer moved per body, the message, the acknowledgement, the garbage;
 * docs/benchmarks.md); the reader
 * copies each exchange out and frees its room at once.
 *
 * Records start on 4-byte boundaries: a u32 payload length, then the payload (see `encode`). A record
 * that does not fit before the end of the ring leaves a WRAP mark and starts again at 0. The ring is
 * empty when the write offset equals the read offset, so the writer never fills it to the last byte.
 * Offsets are published with `Atomics.store` after the bytes are written, and read with
 * `Atomics.load` before the bytes are read (sequentially consistent: the bytes are there).
 */
import type { CapturedBody, CapturedExchange } from './recorder.js'

/** The ring's shared memory: hand both to the recording thread (workerData). */
export interface RingMemory {
  readonly data: SharedArrayBuffer
  readonly state: SharedArrayBuffer
}

/** Int32 slots of `state`. */
const WRITE = 0
const READ = 1
/** Set by the reader while it waits for the next record (the writer then wakes it). */
const SLEEPING = 2
/** Set by the writer when it wants the reader's acknowledgement: room, a drain, closing. */
const WANTED = 3
const STATE_SLOTS = 4

const WRAP = 0xffffffff
const HEADER = 4

/**
 * Room for two of the largest exchanges the proxy records whole (both bodies at `maxBodyBytes`, heads
 * within node's and undici's 16 KiB header limits, each character at most 3 UTF-8 bytes), and at
 * least 8 MiB: the same bound on memory as the backlog it replaces.
 */
export function ringBytesFor(maxBodyBytes: number): number {
  const largest = 2 * maxBodyBytes + 1024 * 1024
  return align(Math.max(8 * 1024 * 1024, 2 * largest))
}

export function createRingMemory(bytes: number): RingMemory {
  return { data: new SharedArrayBuffer(align(bytes)), state: new SharedArrayBuffer(4 * STATE_SLOTS) }
}

/** Both ends' views of the same shared memory. */
function viewsOf(memory: RingMemory): { bytes: Buffer; state: Int32Array; capacity: number } {
  return { bytes: Buffer.from(memory.data), state: new Int32Array(memory.state), capacity: memory.data.byteLength }
}

/** The forwarding thread's end. */
export class RingWriter {
  readonly #bytes: Buffer
  readonly #state: Int32Array
  readonly #capacity: number

  constructor(memory: RingMemory) {
    ;({ bytes: this.#bytes, state: this.#state, capacity: this.#capacity } = viewsOf(memory))
  }

  get capacity(): number {
    return this.#capacity
  }

  /** Bytes free for records (an upper bound: a record may not fit in one piece). */
  free(): number {
    const write = Atomics.load(this.#state, WRITE)
    const read = Atomics.load(this.#state, READ)
    return write >= read ? this.#capacity - write + read - HEADER : read - write - HEADER
  }

  /**
   * Whether the exchange fits once the ring is empty, wherever its offsets stand: in half the ring, it
   * fits either before the end or, wrapped, before the read offset.
   */
  fitsEver(exchange: CapturedExchange): boolean {
    return recordBound(exchange) < this.#capacity / 2
  }

  /** Appends the exchange (the reader is not woken: `wake`); false (nothing written) when it does not fit now. */
  tryAppend(exchange: CapturedExchange): boolean {
    const bound = recordBound(exchange)
    const write = Atomics.load(this.#state, WRITE)
    const read = Atomics.load(this.#state, READ)
    let at: number
    if (write >= read) {
      // Free: [write, capacity) and [0, read). The next write offset must not land on `read`.
      if (write + bound < this.#capacity || (write + bound === this.#capacity && read !== 0)) at = write
      else if (bound < read) at = 0
      else return false
    } else if (write + bound < read) {
      at = write
    } else {
      return false
    }
    if (at !== write) this.#bytes.writeUInt32LE(WRAP, write)
    const end = encode(exchange, this.#bytes, at + HEADER)
    this.#bytes.writeUInt32LE(end - at - HEADER, at)
    Atomics.store(this.#state, WRITE, align(end) % this.#capacity)
    return true
  }

  /** Asks the reader to acknowledge (it posts its totals) once it has done what it was given. */
  want(): void {
    Atomics.store(this.#state, WANTED, 1)
    this.wake()
  }

  /** Whether the reader waits for `wake` (read after an append: then it has not seen that record). */
  readerSleeps(): boolean {
    return Atomics.load(this.#state, SLEEPING) === 1
  }

  wake(): void {
    if (this.readerSleeps()) Atomics.notify(this.#state, WRITE)
  }
}

/** The recording thread's end. */
export class RingReader {
  readonly #bytes: Buffer
  readonly #state: Int32Array
  readonly #capacity: number
  /** Where the read offset goes once the record `peek` gave is done with. */
  #peeked: number | undefined

  constructor(memory: RingMemory) {
    ;({ bytes: this.#bytes, state: this.#state, capacity: this.#capacity } = viewsOf(memory))
  }

  /** The next exchange, copied out of the ring (its room is free again), or undefined when the ring is empty. */
  next(): CapturedExchange | undefined {
    const record = this.peek()
    if (record === undefined) return undefined
    const exchange = decodeRecord(record)
    this.advance()
    return exchange
  }

  /**
   * The next record, in place (see `decodeRecord`, `recordClock`, `recordIdentity`), or undefined
   * when the ring is empty. A view of shared memory: valid until `advance`, which frees its room.
   */
  peek(): Buffer | undefined {
    let read = Atomics.load(this.#state, READ)
    if (read === Atomics.load(this.#state, WRITE)) return undefined
    let length = this.#bytes.readUInt32LE(read)
    if (length === WRAP) {
      read = 0
      length = this.#bytes.readUInt32LE(0)
    }
    this.#peeked = align(read + HEADER + length) % this.#capacity
    return this.#bytes.subarray(read + HEADER, read + HEADER + length)
  }

  /** Frees the room of the record `peek` gave (the writer may then write over it). */
  advance(): void {
    if (this.#peeked === undefined) return
    Atomics.store(this.#state, READ, this.#peeked)
    this.#peeked = undefined
  }

  /** Whether the writer asked for an acknowledgement (and clears the request). */
  takeWanted(): boolean {
    return Atomics.exchange(this.#state, WANTED, 0) === 1
  }

  /**
   * Resolves when the writer appends or asks for something, or `wake` is called; at once when
   * something is there already. Undefined when there is no need to wait.
   */
  waitForWork(): Promise<unknown> | undefined {
    Atomics.store(this.#state, SLEEPING, 1)
    const write = Atomics.load(this.#state, WRITE)
    if (write !== Atomics.load(this.#state, READ) || Atomics.load(this.#state, WANTED) === 1) {
      Atomics.store(this.#state, SLEEPING, 0)
      return undefined
    }
    const waited = waitAsync(this.#state, WRITE, write)
    if (!waited.async) {
      Atomics.store(this.#state, SLEEPING, 0)
      return undefined
    }
    return (waited.value as Promise<string>).then(() => Atomics.store(this.#state, SLEEPING, 0))
  }

  /** Ends a `waitForWork` from this thread (a message arrived). */
  wake(): void {
    Atomics.notify(this.#state, WRITE)
  }
}

/** `Atomics.waitAsync` (Node ≥ 16): in ES2024's lib, newer than the one this project compiles against. */
const waitAsync = (
  Atomics as unknown as {
    waitAsync(array: Int32Array, index: number, value: number): { async: boolean; value: Promise<string> | string }
  }
).waitAsync

function align(offset: number): number {
  return (offset + 3) & ~3
}

// ---------------------------------------------------------------------------------------------
// The record: numbers first (f64), then lists of strings (`putStrings`), bodies (size, truncated,
// u32 length + bytes), and the optional parts behind a presence byte. NaN stands for "not measured".

/** Bytes of a record before its identity: the id and the five clock readings (f64 each). */
const CLOCK_BYTES = 6 * 8

/** What a record says of when its exchange happened, and its id: all that differs between two equal exchanges. */
export interface RecordClock {
  readonly id: number
  readonly startedAt: Date
  readonly times: CapturedExchange['times']
}

export function recordClock(bytes: Buffer): RecordClock {
  const measured = (at: number): number | undefined => {
    const value = bytes.readDoubleLE(at)
    return Number.isNaN(value) ? undefined : value
  }
  return {
    id: bytes.readDoubleLE(0),
    startedAt: new Date(bytes.readDoubleLE(8)),
    times: {
      start: bytes.readDoubleLE(16),
      requestSent: measured(24),
      responseStart: measured(32),
      end: bytes.readDoubleLE(40),
    },
  }
}

/**
 * The bytes of a record that say what the exchange was (request, response, how it ended): everything
 * but its id and clock. Two records with equal identities are the same exchange made again.
 */
export function recordIdentity(bytes: Buffer): Buffer {
  return bytes.subarray(CLOCK_BYTES)
}

/** At most the bytes `encode` writes, header included: strings counted at 3 bytes a UTF-16 unit. */
function recordBound(exchange: CapturedExchange): number {
  let bound =
    HEADER +
    6 * 8 +
    3 +
    strings([exchange.method, exchange.clientPath, exchange.upstreamPath, exchange.httpVersion]) +
    strings(exchange.requestHeaders)
  bound += bodyBound(exchange.requestBody)
  const { response, generated, error } = exchange
  if (response !== undefined)
    bound += 2 + strings([response.statusText]) + strings(response.rawHeaders) + bodyBound(response.body)
  if (generated !== undefined) bound += 2 + strings([generated.statusText, generated.body])
  if (error !== undefined) bound += 1 + strings([error.code, error.message])
  return align(bound + 4)
}

function strings(list: readonly string[]): number {
  let bound = 8
  for (const each of list) bound += 4 + 3 * each.length
  return bound
}

function bodyBound(body: CapturedBody): number {
  return 8 + 1 + 4 + body.bytes.length
}

function encode(exchange: CapturedExchange, bytes: Buffer, start: number): number {
  const { times, response, generated, error } = exchange
  let at = bytes.writeDoubleLE(exchange.id, start)
  at = bytes.writeDoubleLE(exchange.startedAt.getTime(), at)
  at = bytes.writeDoubleLE(times.start, at)
  at = bytes.writeDoubleLE(times.requestSent ?? Number.NaN, at)
  at = bytes.writeDoubleLE(times.responseStart ?? Number.NaN, at)
  at = bytes.writeDoubleLE(times.end, at)
  at = putStrings(bytes, at, [exchange.method, exchange.clientPath, exchange.upstreamPath, exchange.httpVersion])
  at = putStrings(bytes, at, exchange.requestHeaders)
  at = putBody(bytes, at, exchange.requestBody)
  bytes[at++] = response === undefined ? 0 : 1
  if (response !== undefined) {
    at = bytes.writeUInt16LE(response.status, at)
    at = putStrings(bytes, at, [response.statusText])
    at = putStrings(bytes, at, response.rawHeaders)
    at = putBody(bytes, at, response.body)
  }
  bytes[at++] = generated === undefined ? 0 : 1
  if (generated !== undefined) {
    at = bytes.writeUInt16LE(generated.status, at)
    at = putStrings(bytes, at, [generated.statusText, generated.body])
  }
  bytes[at++] = error === undefined ? 0 : 1
  if (error !== undefined) {
    at = putStrings(bytes, at, [error.code, error.message])
    bytes[at++] = error.afterResponseStart ? 1 : 0
  }
  return at
}

/**
 * A list of strings: their count, each one's length in UTF-16 units, then all of them as one UTF-8
 * text (one native write for a whole header list instead of one per name and value).
 */
function putStrings(bytes: Buffer, start: number, values: readonly string[]): number {
  let at = bytes.writeUInt32LE(values.length, start)
  for (const each of values) at = bytes.writeUInt32LE(each.length, at)
  const length = bytes.write(values.length === 1 ? (values[0] as string) : values.join(''), at + 4)
  bytes.writeUInt32LE(length, at)
  return at + 4 + length
}

function putBody(bytes: Buffer, start: number, body: CapturedBody): number {
  let at = bytes.writeDoubleLE(body.size, start)
  bytes[at++] = body.truncated ? 1 : 0
  at = bytes.writeUInt32LE(body.bytes.length, at)
  bytes.set(body.bytes, at) // (TypedArray's own copy: Buffer#copy's checks cost more than 1 KB of copying)
  return at + body.bytes.length
}

/** A body's bytes out of the ring: a copy (the ring's room is written over once it is freed). */
export type CopyBody = (view: Buffer) => Buffer

export const copyOf: CopyBody = (view) => {
  const copy = Buffer.allocUnsafe(view.length)
  copy.set(view) // (TypedArray's own copy, as in putBody)
  return copy
}

/** The exchange a record holds, its bodies copied out of the ring by `copyBody`. */
export function decodeRecord(bytes: Buffer, copyBody: CopyBody = copyOf): CapturedExchange {
  const { id, startedAt, times } = recordClock(bytes)
  let at = CLOCK_BYTES
  const strings = (): string[] => {
    const count = bytes.readUInt32LE(at)
    const lengths = at + 4
    at = lengths + 4 * count
    const length = bytes.readUInt32LE(at)
    at += 4 + length
    const joined = bytes.toString('utf8', at - length, at)
    if (count === 1) return [joined]
    const values = new Array<string>(count)
    let from = 0
    for (let i = 0; i < count; i += 1) {
      const to = from + bytes.readUInt32LE(lengths + 4 * i)
      values[i] = joined.slice(from, to)
      from = to
    }
    return values
  }
  const body = (): CapturedBody => {
    const size = bytes.readDoubleLE(at)
    const truncated = bytes[at + 8] === 1
    const length = bytes.readUInt32LE(at + 9)
    at += 13 + length
    return { bytes: copyBody(bytes.subarray(at - length, at)), size, truncated }
  }
  const [method = '', clientPath = '', upstreamPath = '', httpVersion = ''] = strings()
  const requestHeaders = strings()
  const requestBody = body()
  let response: CapturedExchange['response']
  if (bytes[at++] === 1) {
    const status = bytes.readUInt16LE(at)
    at += 2
    const [statusText = ''] = strings()
    response = { status, statusText, rawHeaders: strings(), body: body() }
  }
  let generated: CapturedExchange['generated']
  if (bytes[at++] === 1) {
    const status = bytes.readUInt16LE(at)
    at += 2
    const [statusText = '', text = ''] = strings()
    generated = { status, statusText, body: text }
  }
  let error: CapturedExchange['error']
  if (bytes[at++] === 1) {
    const [code = '', message = ''] = strings()
    error = {
      code: code as NonNullable<CapturedExchange['error']>['code'],
      message,
      afterResponseStart: bytes[at++] === 1,
    }
  }
  return {
    id,
    startedAt,
    method,
    clientPath,
    upstreamPath,
    httpVersion,
    requestHeaders,
    requestBody,
    response,
    generated,
    error,
    times,
  }
}
