/**
 * A self-signed certificate for 127.0.0.1, made fresh for each simulator run. TLS is needed for
 * authentication, not secrecy on loopback: client-go (kubectl) does not send a bearer token over
 * plain http. The kubeconfig carries this certificate as its certificate authority, so clients
 * verify the server instead of skipping verification.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

export interface ServerCertificate {
  certPem: string;
  keyPem: string;
}

export function makeServerCertificate(): ServerCertificate {
  // The key pair comes from node:crypto (native, fast); node-forge only assembles and signs the certificate.
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const rsaKeyPem = rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  const now = new Date();
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + 365 * 24 * 3600_000);
  const subject = [{ name: 'commonName', value: 'kube-journey-simulator' }, { name: 'organizationName', value: 'Kube Journey' }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }, { type: 2, value: 'localhost' }] },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(rsaKeyPem), forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: rsaKeyPem };
}
