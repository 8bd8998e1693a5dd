import { describe, expect, it } from 'vitest';
import { FetchPolicy, InvalidAllowance, parseAllowance, type Lookup } from '../../../src/server/net/policy.js';
import { OutboundFetchError } from '../../../src/server/net/errors.js';

/** A resolver that knows only the names it is given: no real DNS in these tests. */
const names =
  (table: Record<string, string[]>): Lookup =>
  async (host) => {
    const found = table[host];
    if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OutboundFetchError);
  return err as OutboundFetchError;
};

describe('FetchPolicy', () => {
  const lookup = names({
    'docs.test': ['127.0.0.1'],
    'meta.test': ['169.254.169.254'],
    'pub.test': ['93.184.216.34'],
    'mixed.test': ['10.0.0.5', '93.184.216.34'],
    'v6.test': ['::1', '127.0.0.1'],
  });

  it('refuses a name that resolves to loopback, naming the class and the option', async () => {
    const err = await refusal(new FetchPolicy([], lookup).check('http://docs.test:3000/guide'));
    expect(err.kind).toBe('refused');
    expect(err.message).toBe(
      'refused to fetch http://docs.test:3000/guide: docs.test resolves to 127.0.0.1, a loopback address; facet serve --allow-fetch-from docs.test (or 127.0.0.1/32) allows it',
    );
  });

  it('refuses literal addresses of every local class, in every spelling', async () => {
    const policy = new FetchPolicy([], lookup);
    expect((await refusal(policy.check('http://169.254.169.254/latest/meta-data/'))).message).toBe(
      'refused to fetch http://169.254.169.254/latest/meta-data/: 169.254.169.254 is a link-local address; facet serve --allow-fetch-from 169.254.169.254 allows it',
    );
    for (const u of [
      'http://2130706433/',
      'http://0x7f.1/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://0.0.0.0/',
      'http://[fd00::1]/',
      'http://100.64.1.1/',
      'http://192.168.0.1/',
    ]) {
      expect((await refusal(policy.check(u))).kind, u).toBe('refused');
    }
    expect((await refusal(policy.check('http://meta.test/'))).message).toMatch(
      /169\.254\.169\.254, a link-local address/,
    );
  });

  it('accepts a refused name with a host allowance, and with a CIDR allowance', async () => {
    expect((await new FetchPolicy(['docs.test'], lookup).check('http://docs.test:3000/')).addresses).toEqual([
      { address: '127.0.0.1', family: 4 },
    ]);
    expect((await new FetchPolicy(['DOCS.test.'], lookup).check('http://docs.test/')).hostname).toBe('docs.test');
    expect((await new FetchPolicy(['127.0.0.0/8'], lookup).check('http://docs.test/')).port).toBe(80);
    expect((await new FetchPolicy(['127.0.0.1'], lookup).check('http://127.0.0.1:9/')).addresses[0].address).toBe(
      '127.0.0.1',
    );
    // An allowance for one name does not open another name with the same address.
    expect((await refusal(new FetchPolicy(['docs.test'], lookup).check('http://127.0.0.1/'))).kind).toBe('refused');
    // A CIDR also covers the IPv4-mapped IPv6 spelling of its addresses.
    expect((await new FetchPolicy(['127.0.0.1/32'], lookup).check('http://[::ffff:127.0.0.1]/')).port).toBe(80);
  });

  it('allowing(host) adds the operator-configured host of an upstream and nothing else', async () => {
    const base = new FetchPolicy(['10.0.0.0/8'], lookup);
    const upstream = base.allowing('docs.test');
    expect((await upstream.check('http://docs.test:8080/v2/x')).addresses).toEqual([
      { address: '127.0.0.1', family: 4 },
    ]);
    expect((await upstream.check('http://10.1.2.3/')).port).toBe(80);
    expect((await refusal(upstream.check('http://127.0.0.1/'))).kind).toBe('refused');
    expect((await refusal(upstream.check('http://meta.test/'))).kind).toBe('refused');
    expect((await base.allowing('[::1]').check('http://[::1]:9/')).addresses).toEqual([{ address: '::1', family: 6 }]);
    // The policy it came from is unchanged, and so is its lookup (the name above exists only there).
    expect((await refusal(base.check('http://docs.test/'))).kind).toBe('refused');
  });

  it('keeps only the allowed addresses of a name that has several', async () => {
    expect((await new FetchPolicy([], lookup).check('https://mixed.test/')).addresses).toEqual([
      { address: '93.184.216.34', family: 4 },
    ]);
    expect((await new FetchPolicy(['127.0.0.1'], lookup).check('http://v6.test/')).addresses).toEqual([
      { address: '127.0.0.1', family: 4 },
    ]);
    expect((await new FetchPolicy([], lookup).check('https://pub.test/')).port).toBe(443);
  });

  it('says when a hop was a redirect, and refuses other schemes', async () => {
    const err = await refusal(
      new FetchPolicy([], lookup).check('http://docs.test/', { redirectedFrom: 'http://pub.test/go' }),
    );
    expect(err.message).toMatch(/^refused to fetch http:\/\/docs\.test\/ \(redirected from http:\/\/pub\.test\/go\): /);
    expect((await refusal(new FetchPolicy([], lookup).check('file:///etc/passwd'))).kind).toBe('invalid-url');
    expect((await refusal(new FetchPolicy([], lookup).check('http://nowhere.test/'))).kind).toBe('network');
  });

  it('parses allowances and refuses malformed ones', () => {
    expect(parseAllowance('10.0.0.0/8')).toMatchObject({ kind: 'cidr', text: '10.0.0.0/8' });
    expect(parseAllowance('[::1]')).toMatchObject({ kind: 'cidr', text: '::1' });
    expect(parseAllowance('fd00::/8')).toMatchObject({ kind: 'cidr', text: 'fd00::/8' });
    expect(parseAllowance('2130706433')).toMatchObject({ kind: 'cidr', text: '127.0.0.1' });
    expect(parseAllowance('Docs.Local')).toEqual({ kind: 'host', host: 'docs.local' });
    for (const bad of ['', 'localhost:3000', 'http://x', '10.0.0.0/33', '10.0.0.0/x', 'a b', 'x@y']) {
      expect(() => parseAllowance(bad), bad).toThrow(InvalidAllowance);
    }
    expect(() => new FetchPolicy(['10.0.0.0/40'])).toThrow(
      /--allow-fetch-from "10.0.0.0\/40": expected a host name, an IP address or a CIDR block/,
    );
  });
});
