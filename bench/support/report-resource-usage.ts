/**
 * Preloaded with `node --import` into a measured child process: at exit, writes the process's own
 * resource usage (getrusage) as JSON to the file named by FITCONFORM_BENCH_USAGE_FILE: peak resident
 * memory, and CPU time, which other processes on the machine disturb far less than wall time.
 */
import { writeFileSync } from 'node:fs'

const file = process.env['FITCONFORM_BENCH_USAGE_FILE']
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage()
    writeFileSync(
      file,
      JSON.stringify({ maxRssKb: usage.maxRSS, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000 }),
    )
  })
}
