// The mutant catalogue: deliberately broken variants of the reference server, one rule each.
// `fitconform selftest` runs the suites against every mutant and expects the named rule (an id of
// suites/rules.yaml) to fail; a mutant nobody catches means a rule without a working check.
//
// To add a mutant: append an entry here (the name becomes a type, so a typo in a handler's
// `faults.is('…')` fails to compile), then add one `if (call.server.faults.is('…'))` where the
// behaviour lives. For a body after a HEAD, 204 or 304, set `Reply.rawAfterEnd` (see faults.ts).

export interface MutantDefinition {
  /** kebab-case, stable: used on the command line (`--mutant`). */
  name: string
  /** The id in suites/rules.yaml that this mutant breaks, and only this one. */
  rule: string
  /** What the server does wrong, in one sentence. */
  description: string
}

export const mutantCatalogue = [
  {
    name: 'has-map-boolean',
    rule: 'ACTIVITY-HAS-MAP-TEXT',
    description: 'An activity carries has_map as a JSON boolean instead of the text "true"/"false" (§2.3).',
  },
  {
    name: 'head-with-body',
    rule: 'HEAD-NO-BODY',
    description: 'HEAD writes the body a GET would send after the headers, straight to the socket (§4 endpoint 9).',
  },
  {
    name: 'location-absolute',
    rule: 'CREATE-LOCATION',
    description: 'Create answers with an absolute URL in Location instead of the relative URI (§4 endpoint 4).',
  },
] as const satisfies readonly MutantDefinition[]

export type MutantName = (typeof mutantCatalogue)[number]['name']
