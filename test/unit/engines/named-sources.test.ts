import { describe, expect, it } from 'vitest';
import { aboutNamedSources } from '../../../src/server/engines/retrieval/named-sources.js';

const doc = (source: string, title: string, text: string) => ({ source, title, text });
const about = (subject: string, docs: ReturnType<typeof doc>[]) =>
  aboutNamedSources(docs, subject, (d) => d).map((d) => d.source);

describe('the sources a document about a subject is written from', () => {
  const lts = doc('lts', 'Pino Long Term Support', 'Pino releases are supported for six months.');
  const bench = doc('bench', 'Benchmarks', 'Pino average: 114ms. Winston average: 270ms.');
  const cmd = doc('cmd', 'Commander.js', 'Commander runs on the Long Term Support versions of Node.js.');
  const dbg = doc('dbg', 'debug', 'Install supports-color for more colours.');

  it("keeps the named source and those speaking of its name, not those sharing the title's other words", () => {
    expect(about('Pino long term support and benchmarks', [lts, cmd, bench, dbg])).toEqual(['lts', 'bench']);
  });

  it('a name no source leads its title with: the words that tell the sources apart', () => {
    const guide = doc('guide', 'Getting started with Pino', 'Install pino and log.');
    const other = doc('other', 'Getting started with winston', 'Install winston and log.');
    expect(about('pino', [guide, other])).toEqual(['guide']);
  });

  it('changes nothing when the subject names no source, or names a word every source holds', () => {
    expect(about('logging libraries', [lts, cmd, bench])).toEqual(['lts', 'cmd', 'bench']);
    const a = doc('a', 'Support', 'Long term support.');
    const b = doc('b', 'Other', 'We support you.');
    expect(about('support', [a, b])).toEqual(['a', 'b']);
  });
});
