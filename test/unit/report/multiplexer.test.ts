import { describe, expect, it } from 'vitest'
import type { Diagnostic } from '../../../src/model/diagnostic.js'
import { createMultiplexer } from '../../../src/report/multiplexer.js'
import type { Reporter } from '../../../src/model/reporter.js'
import { planOf, sampleRun, reported } from '../../fixtures/report/build-result.js'

/** A reporter that writes down every hook it receives. */
function recorder(name: string, calls: string[]): Reporter & { diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = []
  return {
    diagnostics,
    onRunStart: () => void calls.push(`${name}.onRunStart`),
    onScenarioEnd: (result) => void calls.push(`${name}.onScenarioEnd ${result.id}`),
    onDiagnostic: (diagnostic) => void diagnostics.push(diagnostic),
    onRunEnd: async () => {
      await new Promise((resolve) => setTimeout(resolve, 5))
      calls.push(`${name}.onRunEnd`)
    },
  }
}

describe('multiplexer', () => {
  it('calls the reporters in order, awaiting each', async () => {
    const calls: string[] = []
    const multiplexer = createMultiplexer([recorder('a', calls), recorder('b', calls)])
    const result = reported(sampleRun())
    await multiplexer.onRunStart(planOf(result))
    await multiplexer.onRunEnd(result, planOf(result))
    expect(calls).toEqual(['a.onRunStart', 'b.onRunStart', 'a.onRunEnd', 'b.onRunEnd'])
  })

  it('keeps going when a reporter throws, and tells the others', async () => {
    const calls: string[] = []
    const first = recorder('first', calls)
    const last = recorder('last', calls)
    const broken: Reporter & { name: string } = {
      name: 'html',
      onRunEnd: () => {
        throw new Error('template missing')
      },
    }
    const multiplexer = createMultiplexer([first, broken, last])
    const result = reported(sampleRun())
    await multiplexer.onRunEnd(result, planOf(result))
    const expected: Diagnostic = {
      code: 'E_REPORTER',
      kind: 'internal',
      message: 'reporter "html" failed in onRunEnd: template missing',
    }
    expect(calls).toEqual(['first.onRunEnd', 'last.onRunEnd'])
    expect(multiplexer.errors()).toEqual([expected])
    expect(first.diagnostics).toEqual([expected])
    expect(last.diagnostics).toEqual([expected])
  })

  it('records a reporter that fails on a diagnostic without passing it round again', async () => {
    const failing: Reporter = {
      onScenarioEnd: () => Promise.reject(new Error('one')),
      onDiagnostic: () => {
        throw new Error('two')
      },
    }
    const other: Reporter = {
      onDiagnostic: () => {
        throw 'not an Error'
      },
    }
    const multiplexer = createMultiplexer([failing, other])
    await multiplexer.onScenarioEnd(sampleRun().scenarios[0]!)
    expect(multiplexer.errors().map((diagnostic) => diagnostic.message)).toEqual([
      'reporter #1 failed in onScenarioEnd: one',
      'reporter #2 failed in onDiagnostic: not an Error',
    ])
  })

  it('prints to stdout when any of its reporters does', () => {
    expect(createMultiplexer([{ printsToStdout: () => false }]).printsToStdout()).toBe(false)
    expect(createMultiplexer([{ printsToStdout: () => false }, { printsToStdout: () => true }]).printsToStdout()).toBe(
      true,
    )
  })
})
