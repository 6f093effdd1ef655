// Preloaded into a browser test's server process (`node --import ./apps/web/e2e/fake-sns-certificate.mjs`)
// so SNS messages signed by apps/server/test/sns-signer.ts verify without reaching AWS: global
// `fetch` answers the one test certificate URL with the PEM in SNS_TEST_CERT_FILE, and that host's
// DNS answer (the outbound-address guard resolves the host first) is a fixed public AWS address.
// Nothing in the product changes; only a process started with this module trusts the test key.
import dns from 'node:dns';
import { readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const CERT_URL = 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-0123456789abcdef0123456789abcdef.pem';
const HOST = new URL(CERT_URL).hostname;
const file = process.env.SNS_TEST_CERT_FILE;
if (!file) throw new Error('fake-sns-certificate.mjs: set SNS_TEST_CERT_FILE to the PEM file');

const realFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (url === CERT_URL)
    return new Response(readFileSync(file, 'utf8'), { status: 200, headers: { 'content-type': 'application/x-pem-file' } });
  return realFetch(input, init);
};

// The guard resolves the host before the fetch; answer it without DNS (an AWS address, never connected to).
const realLookup = dns.promises.lookup;
dns.promises.lookup = async (host, options) => {
  if (host === HOST) return options?.all ? [{ address: '52.94.236.248', family: 4 }] : { address: '52.94.236.248', family: 4 };
  return realLookup(host, options);
};
syncBuiltinESMExports();
