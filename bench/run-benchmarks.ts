import { benchThroughput } from './throughput.js'
import { formatTable } from './support/figures.js'

const figures = await benchThroughput({ runs: 5 })
process.stdout.write(formatTable(figures) + '\n')
