import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './resolved-hosts.js';

/**
 * A `lookup` for net/tls.connect that answers with addresses already checked by the policy and
 * never asks DNS again, so the connection reaches exactly what was checked. The host name still
 * travels as TLS SNI and in the Host header.
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options?.family === 4 || options?.family === 6 ? options.family : undefined;
    const usable = family ? addresses.filter((a) => a.family === family) : addresses;
    if (usable.length === 0) {
      const err = Object.assign(new Error(`no IPv${family} address was allowed for this host`), { code: 'ENOTFOUND' });
      callback(err, '', 0);
      return;
    }
    if (options?.all)
      callback(
        null,
        usable.map((a) => ({ address: a.address, family: a.family })),
      );
    else callback(null, usable[0].address, usable[0].family);
  };
}
