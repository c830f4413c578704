import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { makeTempDir } from './temp-dir.js'

export interface TestCertificate {
  readonly certFile: string
  readonly keyFile: string
  readonly cert: string
  readonly key: string
}

/** A self-signed certificate for 127.0.0.1, made by openssl at test time (nothing secret is committed). */
export function makeSelfSignedCertificate(): TestCertificate {
  const folder = makeTempDir('fitconform-tls-')
  const certFile = join(folder, 'cert.pem')
  const keyFile = join(folder, 'key.pem')
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  )
  return { certFile, keyFile, cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') }
}
