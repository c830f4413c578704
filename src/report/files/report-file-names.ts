/** The file each built-in file reporter writes into the output directory unless given its own path. */
export const REPORT_FILE_NAMES: Readonly<Record<string, string>> = {
  json: 'results.json',
  junit: 'junit.xml',
  html: 'report.html',
  markdown: 'summary.md',
}
