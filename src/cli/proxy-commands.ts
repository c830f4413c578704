import type { Command } from 'commander'

/** Placeholder until the proxy commands land (owned by the proxy work). */
export function addProxyCommands(program: Command): void {
  void program
}
