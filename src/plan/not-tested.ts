import type { MissingToken } from '../model/reporter.js'
import type { Step, TokenRole } from '../model/scenario.js'
import { TOKEN_ROLES } from '../model/scenario.js'
import { envVarOfRole, type RunPlan } from './plan-run.js'

/**
 * What each token flag that was not given leaves untested: the scenarios and permission-matrix cells
 * it skips, and the rules that only those would have judged. Pure, from the plan, so the run can say
 * it before the first scenario and every report can repeat it at the end.
 */
export function notTestedForMissingTokens(plan: RunPlan, availableRoles: ReadonlySet<TokenRole>): MissingToken[] {
  const missing = new Map<TokenRole, { scenarios: number; cells: Set<string>; rules: Set<string> }>()
  const entry = (role: TokenRole): { scenarios: number; cells: Set<string>; rules: Set<string> } => {
    const found = missing.get(role) ?? { scenarios: 0, cells: new Set<string>(), rules: new Set<string>() }
    missing.set(role, found)
    return found
  }
  const judged = new Set<string>()
  const skippedFor = new Map(plan.skipped.map((skip) => [skip.scenario, skip.missingRoles ?? []]))
  for (const scenario of plan.order) {
    const roles = skippedFor.get(scenario)
    if (roles !== undefined) {
      for (const role of roles) {
        const found = entry(role)
        found.scenarios++
        for (const step of scenario.steps) for (const rule of rulesOf(step)) found.rules.add(rule)
      }
      continue
    }
    for (const step of scenario.steps) {
      const credential = step.cell?.credential
      if (step.cell?.open !== undefined) continue
      if (isTokenRole(credential) && !availableRoles.has(credential)) {
        const found = entry(credential)
        found.cells.add(`${scenario.id} ${step.cell!.route}`)
        for (const rule of rulesOf(step)) found.rules.add(rule)
      } else {
        for (const rule of rulesOf(step)) judged.add(rule)
      }
    }
  }
  return TOKEN_ROLES.filter((role) => missing.has(role)).map((role) => {
    const found = missing.get(role)!
    return {
      flag: `--${role}`,
      env: envVarOfRole(role),
      scenarios: found.scenarios,
      cells: found.cells.size,
      rules: [...found.rules].filter((rule) => !judged.has(rule)),
    }
  })
}

/** The rules a step's checks judge, those of the steps of its `parallel:` group included. */
function rulesOf(step: Step): string[] {
  return [
    ...step.expect.checks.flatMap((check) => check.rules),
    ...(step.expect.schema?.rules ?? []),
    ...(step.parallel ?? []).flatMap((branch) => rulesOf(branch.step)),
  ]
}

function isTokenRole(choice: string | undefined): choice is TokenRole {
  return (TOKEN_ROLES as readonly string[]).includes(choice ?? '')
}
